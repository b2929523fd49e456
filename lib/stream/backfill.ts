// Builds the search index of events written before the stream consumer kept it (a table that
// predates it, on AWS or in .local/dynamodb): every event record, read by a parallel Scan, is
// indexed as the consumer indexes a new event, a page of the Scan at a time in batches. Idempotent (lib/stream/search-trigger.ts), so it
// may be stopped and run again, and it may run while the consumer works. A one-off maintenance
// task run from a machine (`npm run backfill:search`, or `npm start` when it turns the stream on),
// never by a function: no function may Scan.
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { batchGet } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
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

/** How many events are indexed together: their bucket updates merge, so fewer, larger chunks cost less. */
const CHUNK = 1000;

/**
 * Indexes the events of the given ids (an import's: it knows what it wrote), as the backfill
 * does, without its Scan: the Scan reads every item of the table, the index items it is writing
 * among them, to find the events, which grew with the square of a large import. Ids of no event
 * are skipped. Idempotent, like the backfill. `commits`: as lib/store/batch-writes.ts says.
 */
export async function indexEvents(ids: readonly number[], progress?: (done: number) => void, commits?: IndexTarget['commits']): Promise<number> {
  const target: IndexTarget = { table: config().tableName, client: db(), commits };
  let done = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const found = await batchGet(
      ids.slice(i, i + CHUNK).map((id) => keys.post(id)),
      true,
    );
    const events = [...found.values()].map((p) => ofKind(p, 'event')).filter((e): e is EventItem => e !== undefined);
    await indexNew(events, target);
    done += events.length;
    progress?.(done);
  }
  return done;
}

/**
 * Indexes an import's events while it writes the others: ids come as their writes are done, and
 * each 500 are indexed beside the writes (half a chunk: what is left when the writes end is what
 * the owner waits for), one chunk after another (DynamoDB Local's transactions
 * take one core, and the writes leave part of the other). `finish` indexes the rest, and the ids
 * it is given that were not told before, and answers how many events it indexed in all.
 */
export function indexAlong(commits?: IndexTarget['commits'], chunk = CHUNK / 2) {
  const told = new Set<number>();
  let waiting: number[] = [];
  let indexed = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: { err: unknown } | undefined;
  const flush = () => {
    const ids = waiting;
    waiting = [];
    chain = chain.then(async () => {
      if (failure) return;
      indexed += await indexEvents(ids, undefined, commits).catch((err: unknown) => {
        failure = { err };
        return 0;
      });
    });
  };
  return {
    add(id: number): void {
      if (told.has(id)) return;
      told.add(id);
      waiting.push(id);
      if (waiting.length >= chunk) flush();
    },
    /** How many are indexed so far. */
    get indexed(): number {
      return indexed;
    },
    async finish(more: Iterable<number>, progress?: (done: number) => void): Promise<number> {
      await chain;
      if (failure) throw failure.err;
      const rest = [...new Set([...waiting, ...[...more].filter((id) => !told.has(id))])];
      waiting = [];
      const before = indexed;
      indexed += await indexEvents(rest, (n) => progress?.(before + n), commits);
      return indexed;
    },
  };
}
