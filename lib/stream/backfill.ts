// Builds the search index of events written before the stream consumer kept it (a table that
// predates it, on AWS or in .local/dynamodb): every event record, read by a parallel Scan, is
// indexed as the consumer indexes a new event, a page of the Scan at a time in batches. Idempotent (lib/stream/search-trigger.ts), so it
// may be stopped and run again, and it may run while the consumer works. A one-off maintenance
// task run from a machine (`npm run backfill:search`, or `npm start` when it turns the stream on),
// never by a function: no function may Scan.
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { scanEvents } from '#lib/store/search-index.js';
import { indexNew, type IndexTarget } from './search-trigger.js';

export interface BackfillOptions {
  /** The table and client (default: the configured table, through the shared client). */
  target?: IndexTarget;
  /** Parallel Scan segments (DynamoDB's TotalSegments). */
  segments?: number;
  /** Called after each page with the running counts. */
  progress?: (done: { scanned: number; events: number }) => void;
}

export async function backfillSearch({ target, segments = 4, progress }: BackfillOptions = {}): Promise<{ scanned: number; events: number }> {
  const { table, client }: IndexTarget = target ?? { table: config().tableName, client: db() };
  const counts = { scanned: 0, events: 0 };
  const segment = async (n: number) => {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await scanEvents({ table, client }, { n, of: segments }, start);
      const events = page.events;
      await indexNew(events, { table, client });
      counts.scanned += page.scanned;
      counts.events += events.length;
      progress?.({ ...counts });
      start = page.last;
    } while (start);
  };
  await Promise.all(Array.from({ length: segments }, (_, n) => segment(n)));
  return counts;
}
