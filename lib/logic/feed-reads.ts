// The records of a calendar feed's events (GET /events?ical=1), the soonest first, as many as one
// answer can hold: within the request's read budget (lib/contract/budget.ts), keeping a reserve for
// the venues, organizers and terms read after them, and within `icalMaxBytes` of records, so that
// the file stays under what a function may answer. A feed of heavy events is cut (it says so in
// its headers) rather than refused.
import { REQUEST_BUDGET } from '#lib/contract/budget.js';
import { readSoFar } from '#lib/observe/capacity.js';
import { config } from '#lib/runtime/config.js';
import { batchGet, keyOf, type Key } from '#lib/store/reads.js';

/** Read units kept for what the feed reads after its events (their linked records). */
export const LINKED_RESERVE = 1_000;

/** Keys read by the first BatchGet, which measures what a record costs: 25 of the largest records DynamoDB holds cost 1,250 units. */
const FIRST = 25;

/** About the bytes DynamoDB counts for an item (its JSON is within a few percent of it). */
const bytesOf = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

/**
 * The items of the longest prefix of `list` that fits, by key, and how long that prefix is (items
 * that no longer exist count in it, as the batch read passes over them).
 */
export async function readFitting<T>(list: Key[], maxBytes = config().icalMaxBytes): Promise<{ found: Map<string, T>; count: number }> {
  const found = new Map<string, T>();
  let count = 0;
  let bytes = 0;
  let costliest = 0;
  while (count < list.length) {
    let take = FIRST;
    if (count > 0) {
      // The records read so far stand for the ones left: their average size, their dearest read.
      const perItem = bytes / Math.max(found.size, 1);
      const spent = readSoFar();
      const byUnits = spent === undefined ? Number.POSITIVE_INFINITY : (REQUEST_BUDGET.readUnits - LINKED_RESERVE - spent) / Math.max(costliest, 0.5);
      take = Math.floor(Math.min(byUnits, (maxBytes - bytes) / Math.max(perItem, 1)));
      if (take <= 0) break;
    }
    const keys = list.slice(count, count + take);
    const before = readSoFar() ?? 0;
    const read = await batchGet<T>(keys);
    const after = readSoFar() ?? before;
    // Keep the prefix within the bytes: a record past them ends the feed.
    for (const key of keys) {
      const item = read.get(keyOf(key));
      if (item !== undefined) {
        const size = bytesOf(item);
        if (bytes + size > maxBytes && found.size > 0) return { found, count };
        bytes += size;
        found.set(keyOf(key), item);
      }
      count++;
    }
    costliest = Math.max(costliest, (after - before) / Math.max(read.size, 1));
  }
  return { found, count };
}
