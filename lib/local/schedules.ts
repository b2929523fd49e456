// The local runtime's schedules: each scheduled background function (SCHEDULED_FUNCTIONS, run on
// AWS by an EventBridge rule, infra/schedules.ts) runs with its grants and timeout, as Lambda runs
// it, shortly after start and then at its rate. A run that fails is logged; the next one comes at
// its time.
import { SCHEDULED_FUNCTIONS, rateMs } from '#lib/stream/functions.js';
import { loadHandler } from './gateway.js';
import { runFunction } from './stream.js';

export interface LocalSchedules {
  /** Runs every scheduled function now, once (tests); resolves with their results by id. */
  runAll(): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export interface LocalSchedulesOptions {
  /** The wait before the first runs, in ms (default 5 s: the server is up by then). */
  firstAfterMs?: number;
  log?: (line: string) => void;
}

export function startSchedules(opts: LocalSchedulesOptions = {}): LocalSchedules {
  const log = opts.log ?? ((line: string) => console.error(line));
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  const runOne = async (f: (typeof SCHEDULED_FUNCTIONS)[number]) => {
    const handler = (await loadHandler(f.handler)) as unknown as (event: unknown, context: unknown) => Promise<unknown>;
    return runFunction(f, handler, { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} });
  };
  const tick = (f: (typeof SCHEDULED_FUNCTIONS)[number]) => {
    const run = runOne(f).catch((err: Error) => log(`${f.id} failed: ${err.message}`));
    running.add(run);
    void run.finally(() => running.delete(run));
  };
  for (const f of SCHEDULED_FUNCTIONS) {
    const first = setTimeout(() => {
      tick(f);
      const every = setInterval(() => tick(f), rateMs(f.schedule));
      every.unref();
      timers.push(every);
    }, opts.firstAfterMs ?? 5_000);
    first.unref();
    timers.push(first);
  }
  return {
    runAll: async () => Object.fromEntries(await Promise.all(SCHEDULED_FUNCTIONS.map(async (f) => [f.id, await runOne(f)]))),
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      await Promise.allSettled([...running]);
    },
  };
}
