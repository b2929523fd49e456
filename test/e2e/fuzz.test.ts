// The fuzzer as part of `npm test`: a fixed seed and 2,000 generated requests against the local
// gateway on a fresh table (test/fuzz/ has the generators, the oracle and the runner; `npm run
// fuzz` runs 20,000 with a random seed). It fails when any response breaks a rule: a 5xx, an
// error outside WordPress's envelope, a status or body /doc does not declare, a success for a
// request that breaks its arguments' declared types, stored control characters, a changed
// prototype, or a plain request that behaves differently after the run than before it. The
// report in the failure message lists each kind of failure with a minimized reproducer.
// Its own file, so its own process (vitest forks): a request that pollutes a prototype must not
// reach another test file.
import { describe, expect, it } from 'vitest';
import { ensureDevKeys } from '../../lib/local/dev-auth.js';
import { failed, formatSummary } from '../fuzz/report.js';
import { runFuzz } from '../fuzz/runner.js';
import { useGateway } from '../support/gateway.js';

const SEED = 20_261_123;
const RUNS = 2_000;

const gw = useGateway({ tablePrefix: 'fuzz' });

describe('generated requests (fuzzing)', () => {
  it(`answers ${RUNS} requests from seed ${SEED} by the rules and /doc`, { timeout: 240_000 }, async () => {
    const summary = await runFuzz({ origin: gw.origin, keys: await ensureDevKeys('.local'), runs: RUNS, seed: SEED, concurrency: 8, minimizeBudget: 250 });
    const report = formatSummary(summary);
    expect(summary.sent).toBe(RUNS);
    expect(failed(summary), report).toBe(false);
  });
});
