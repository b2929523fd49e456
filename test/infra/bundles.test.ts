// Each function's bundle holds what its operation uses and nothing of what it does not: built
// with the stack's own esbuild settings (infra/bundling.ts), its inputs are checked.
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, nodejsBundling } from '../../infra/bundling.js';
import { FALLBACK_HANDLER, OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { takesHtml } from '#lib/contract/params.js';
import { BACKGROUND_FUNCTIONS } from '#lib/stream/functions.js';

type Inputs = string[];
const bundles = new Map<string, Inputs>();

async function inputsOf(entry: string): Promise<Inputs> {
  const r = await build({ ...esbuildOptions(entry), write: false, metafile: true, outfile: '/tmp/bundle-test/index.mjs', logLevel: 'error' });
  return Object.keys((r.metafile as Metafile).inputs);
}

const has = (inputs: Inputs, part: string) => inputs.some((i) => i.includes(part));

describe('function bundles', () => {
  beforeAll(async () => {
    const entries: [string, string][] = [
      ...OPERATIONS.map((op): [string, string] => [op.id, op.handler]),
      ...BACKGROUND_FUNCTIONS.map((f): [string, string] => [f.id, f.handler]),
      ['fallback', FALLBACK_HANDLER],
    ];
    const built = await Promise.all(entries.map(async ([id, entry]) => [id, await inputsOf(entry)] as const));
    for (const [id, inputs] of built) bundles.set(id, inputs);
  }, 120_000);

  it('the stack bundles with the same aliases the test builds with', () => {
    expect(nodejsBundling().esbuildArgs).toEqual({ '--alias:@aws-sdk/credential-provider-node': './lib/runtime/lambda-credentials.ts' });
  });

  it("take Lambda's environment credentials instead of the SDK's whole default chain", () => {
    for (const [id, inputs] of bundles) {
      if (!has(inputs, '@aws-sdk/')) continue;
      expect(has(inputs, 'lib/runtime/lambda-credentials.ts'), id).toBe(true);
      for (const gone of ['credential-provider-node/', 'credential-provider-ini/', 'credential-provider-sso/', 'nested-clients/', 'credential-provider-imds/']) {
        expect(has(inputs, gone), `${id} carries ${gone}`).toBe(false);
      }
    }
  });

  it('carry no query-string package, no local runtime, no benchmark and no seed data', () => {
    for (const [id, inputs] of bundles) {
      for (const gone of ['node_modules/qs/', 'lib/local/', 'bench/', 'scripts/', 'node_modules/object-inspect/']) {
        expect(has(inputs, gone), `${id} carries ${gone}`).toBe(false);
      }
    }
  });

  const ops = (pred: (op: Operation) => boolean) => OPERATIONS.filter(pred);

  it('read functions carry no write logic, no save-time HTML filters and no idempotency utility', () => {
    const reads = ops((op) => op.access === 'read');
    expect(reads.length).toBeGreaterThan(10);
    for (const op of reads) {
      const inputs = bundles.get(op.id)!;
      for (const gone of ['lib/contract/html-filters.ts', 'lib/http/idempotency.ts', '@aws-lambda-powertools/idempotency', 'lib/logic/events.ts', 'lib/logic/event-writes.ts', 'lib/logic/places.ts', 'lib/logic/terms.ts']) {
        expect(has(inputs, gone), `${op.id} carries ${gone}`).toBe(false);
      }
    }
  });

  it('only the document function carries the OpenAPI builder', () => {
    for (const [id, inputs] of bundles) expect(has(inputs, 'lib/docs/openapi.ts'), id).toBe(id === 'root.doc');
  });

  it('the HTML filters and the idempotency utility go exactly where the operation table says', () => {
    for (const op of OPERATIONS) {
      const inputs = bundles.get(op.id)!;
      expect(has(inputs, 'lib/contract/html-filters.ts'), op.id).toBe(takesHtml(op.args));
      expect(has(inputs, '@aws-lambda-powertools/idempotency'), op.id).toBe(op.idempotent === true);
    }
  });
});
