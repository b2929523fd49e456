// The records of a calendar feed's events (GET /events?ical=1), the soonest first, as many as one
// answer can hold: within the request's read budget (lib/contract/budget.ts), keeping a reserve for
// the venues, organizers and terms read after them, and within `icalMaxBytes` of records, so that
// the file stays under what a function may answer. A feed of heavy events is cut (it says so in
// its headers) rather than refused. A feed of a search judges its candidates a chunk at a time
// (lib/logic/event-search.ts) and stops where the next chunk would leave too little for the rest.
import { REQUEST_BUDGET } from '#lib/contract/budget.js';
import { readSoFar, requestsSoFar } from '#lib/observe/capacity.js';
import { config } from '#lib/runtime/config.js';
import { batchGet, Found, keyOf, type ItemKey } from '#lib/store/reads.js';

/** Read units kept for what the feed reads after its events (their linked records). */
export const LINKED_RESERVE = 1_000;

/** Keys read by the first BatchGet, which measures what a record costs: 25 of the largest records DynamoDB holds cost 1,250 units. */
const FIRST = 25;

/** About the bytes DynamoDB counts for an item (its JSON is within a few percent of it). */
const bytesOf = (item: unknown) => Buffer.byteLength(JSON.stringify(item));

/**
 * The items of the longest prefix of `list` that fits, by key, and how long that prefix is (items
 * that no longer exist count in it, as the batch read passes over them). Items already `known`
 * take their room in the prefix without being read again.
 */
export async function readFitting<T>(list: ItemKey<T>[], maxBytes = config().icalMaxBytes, known?: ReadonlyMap<string, T>): Promise<{ found: Found<T>; count: number }> {
  const found = new Found<T>();
  let count = 0;
  let bytes = 0;
  let costliest = 0;
  while (count < list.length) {
    let take = FIRST;
    if (count > 0) {
      // The records read so far stand for the ones left: their average size, their dearest read.
      const perItem = bytes / Math.max(found.size, 1);
      const spent = readSoFar();
      // Until a read has measured what a record costs (the first ones may all be known), 25 more.
      const byUnits = costliest === 0 ? FIRST : spent === undefined ? Number.POSITIVE_INFINITY : (REQUEST_BUDGET.readUnits - LINKED_RESERVE - spent) / costliest;
      take = Math.floor(Math.min(byUnits, (maxBytes - bytes) / Math.max(perItem, 1)));
      if (take <= 0) break;
    }
    const keys = list.slice(count, count + take);
    const unread = known ? keys.filter((k) => !known.has(keyOf(k))) : keys;
    const before = readSoFar() ?? 0;
    const read = unread.length ? await batchGet<T>(unread) : new Map<string, T>();
    const after = readSoFar() ?? before;
    // Keep the prefix within the bytes: a record past them ends the feed.
    for (const key of keys) {
      const item = known?.get(keyOf(key)) ?? read.get(keyOf(key));
      if (item !== undefined) {
        const size = bytesOf(item);
        if (bytes + size > maxBytes && found.size > 0) return { found, count };
        bytes += size;
        found.set(keyOf(key), item);
      }
      count++;
    }
    if (unread.length) costliest = Math.max(costliest, (after - before) / Math.max(read.size, 1), 0.5);
  }
  return { found, count };
}

/**
 * What a feed's search keeps for its reads after the candidates: beside a batch per 100 of its
 * events' records, the linked records and the language's terms (a few requests; events carry the
 * cards of their venues and organizers), and read units for them and the records not read yet.
 */
const AFTER_SEARCH = { requests: 4, readUnits: LINKED_RESERVE + 1_500 };

/**
 * How many candidates a feed's search may judge next within the request's budget, from what the
 * chunks judged so far cost: the most requests one took, the most read units per candidate.
 */
export class SearchRoom {
  private perChunk = 0;
  private perCandidate = 0;
  private mark = { requests: 0, read: 0 };
  /** The bytes of the matches' records read so far: past `maxBytes`, the feed is full. */
  private bytes = 0;

  constructor(private readonly maxBytes = config().icalMaxBytes) {}

  /**
   * At most `size` more candidates, after `found` events: none when the feed is full, or when the
   * next chunk would pass what the feed keeps for after it. Before a chunk has measured them, a
   * chunk that reads the records of its candidates takes 25 (at most 1,250 units).
   */
  fit(size: number, found: number, readsRecords: boolean): number {
    const requests = requestsSoFar();
    const read = readSoFar();
    if (this.bytes >= this.maxBytes) return 0;
    if (requests === undefined || read === undefined) return size;
    const after = AFTER_SEARCH.requests + Math.ceil((found + size) / 100);
    if (requests + this.perChunk + after > REQUEST_BUDGET.requests) return 0;
    this.mark = { requests, read };
    const units = REQUEST_BUDGET.readUnits - AFTER_SEARCH.readUnits - read;
    const byUnits = this.perCandidate ? Math.floor(units / this.perCandidate) : readsRecords ? FIRST : size;
    return Math.max(0, Math.min(size, byUnits));
  }

  /** Measures the chunk of `candidates` judged since `fit`, and the records of its matches that it read. */
  judged(candidates: number, records: readonly unknown[] = []): void {
    for (const r of records) this.bytes += bytesOf(r);
    this.perChunk = Math.max(this.perChunk, (requestsSoFar() ?? 0) - this.mark.requests);
    if (candidates) this.perCandidate = Math.max(this.perCandidate, ((readSoFar() ?? 0) - this.mark.read) / candidates, 0.01);
  }
}
