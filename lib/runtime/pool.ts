// A bounded worker pool: many calls (reads of a site, writes of an index, creates of a seed) run
// side by side, never more than a limit at once, so that neither this process nor what it calls
// is flooded.
import { waitAll } from './settle.js';

/**
 * `fn` over `items`, at most `limit` calls at once (at least one), the results in the items'
 * order. After a failure no further item starts, and the pool rejects with the first failure only
 * once every started call has settled: none runs on after the caller has its answer.
 */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (err) {
        if (!failed) failure = err;
        failed = true;
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await waitAll(Array.from({ length: width }, worker));
  if (failed) throw failure;
  return out;
}
