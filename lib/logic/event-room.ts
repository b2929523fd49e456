// How many links an event write holds. A write is one DynamoDB transaction (event-writes.ts), which
// takes at most MAX_TRANSACT_ITEMS items, and every link costs items in it: its link item, the
// count bucket of its list and its record's count or check, again for a link removed, and a link
// item rewritten for every link kept when the links change (they carry them all). So no fixed
// number of categories, tags, venues or organizers is the limit: any mix whose transaction fits is
// taken, and a write that would not fit is refused before anything is written, with how many of
// its links fit (the import keeps that many, lib/import/writer.ts).
import { invalidParams } from '#lib/contract/errors.js';
import type { EventItem } from '#lib/store/items.js';
import { MAX_TRANSACT_ITEMS } from '#lib/store/transactions.js';
import { eventWrites, type TransactionLinks } from './event-writes.js';

type LinkField = 'venue' | 'organizer' | 'categories' | 'tags';

/** The order links are kept in when not all fit: venues, organizers, categories, then tags. */
const LINK_ORDER = [
  ['venue', 'venues'],
  ['organizer', 'organizers'],
  ['categories', 'categories'],
  ['tags', 'tags'],
] as const satisfies readonly (readonly [LinkField, keyof EventItem])[];

/** The code of each refused field's detail, whose `data.fit` the import reads. */
export const TOO_MANY_LINKS = 'rest_too_many_links';

const linkCount = (e: EventItem) => LINK_ORDER.reduce((n, [, attr]) => n + e[attr].length, 0);

/** `e` with its first `k` links, in LINK_ORDER. */
function firstLinks(e: EventItem, k: number): EventItem {
  const out = { ...e };
  let left = k;
  for (const [, attr] of LINK_ORDER) {
    out[attr] = e[attr].slice(0, Math.max(0, left));
    left -= e[attr].length;
  }
  return out;
}

/**
 * The items a write from `old` to `next` needs: its own transaction's, and those of a create of
 * what it stores. A trash, restore or delete of the event costs no more than that create, so an
 * event this accepts can always be trashed, restored and deleted.
 */
function itemsNeeded(old: EventItem | undefined, next: EventItem, links: TransactionLinks, tableName: string): number {
  const own = eventWrites(old, next, tableName, links).items.length;
  return old ? Math.max(own, eventWrites(undefined, next, tableName, { bound: links.bound }).items.length) : own;
}

/**
 * Refuses (400 rest_invalid_param, before anything is written) a write whose transaction would not
 * fit, naming the link fields past the links that fit and saying how many fit. `linksFor` gives the
 * transaction's other parts for the event with some of its links (a term created with the write
 * is created only when linked).
 */
export function requireRoom(old: EventItem | undefined, next: EventItem, linksFor: (e: EventItem) => TransactionLinks, tableName: string): void {
  const needed = itemsNeeded(old, next, linksFor(next), tableName);
  if (needed <= MAX_TRANSACT_ITEMS) return;
  const total = linkCount(next);
  // The longest run of links that fits (fewer links never need more items).
  let lo = 0;
  let hi = total - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const e = firstLinks(next, mid);
    if (itemsNeeded(old, e, linksFor(e), tableName) <= MAX_TRANSACT_ITEMS) lo = mid;
    else hi = mid - 1;
  }
  throw tooManyLinks(next, lo, total, needed, !!old);
}

/** The refusal of a write that holds `total` links where only the first `fit` fit. */
function tooManyLinks(next: EventItem, fit: number, total: number, needed: number, update: boolean) {
  const message =
    `An event write holds at most ${MAX_TRANSACT_ITEMS} changes and this one needs ${needed}: of its ${total} links ` +
    `(venues, organizers, categories and tags together, in that order) the first ${fit} fit in one write` +
    (update ? ', with the links it removes (replace many links in two updates: one that removes, one that adds).' : '.');
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  let start = 0;
  for (const [field, attr] of LINK_ORDER) {
    const n = next[attr].length;
    if (n && start + n > fit) {
      params[field] = message;
      details[field] = { code: TOO_MANY_LINKS, message, data: { status: 400, links: total, fit } };
    }
    start += n;
  }
  return invalidParams(params, details);
}

/**
 * A payload's links, refused before they are read when there are more than any write can hold:
 * each link costs at least one of the transaction's items.
 */
export function requireFewerThanItems(lists: Partial<Record<LinkField, unknown[]>>): void {
  const total = Object.values(lists).reduce((n, l) => n + (l?.length ?? 0), 0);
  if (total <= MAX_TRANSACT_ITEMS) return;
  const message = `An event write holds at most ${MAX_TRANSACT_ITEMS} changes and each link is at least one of them: ${total} links do not fit (send fewer than ${MAX_TRANSACT_ITEMS}; an answer then says how many fit).`;
  const sent = (Object.keys(lists) as LinkField[]).filter((f) => lists[f]?.length);
  throw invalidParams(
    Object.fromEntries(sent.map((f) => [f, message])),
    Object.fromEntries(sent.map((f) => [f, { code: TOO_MANY_LINKS, message, data: { status: 400, links: total } }])),
  );
}
