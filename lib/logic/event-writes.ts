// The transaction that moves an event from one stored state to another: the record, its slug
// guard, its link items in the partitions of its venues, organizers and terms, and the published
// counts of its terms. Creating, updating, trashing, deleting and unlinking all go through it, so
// that these always change together or not at all.
import { ApiError } from '../errors.js';
import { del, put, putIfVersion, update, type TransactItem } from '../store/base.js';
import { keys } from '../store/keys.js';
import type { EventItem, LinkItem } from '../store/items.js';
import { indexed } from './common.js';

const linkTargets = (e: EventItem): string[] => [
  ...e.venues.map((id) => keys.post(id).pk),
  ...e.organizers.map((id) => keys.post(id).pk),
  ...e.categories.map((id) => keys.term(id).pk),
  ...e.tags.map((id) => keys.term(id).pk),
];

function linkItems(e: EventItem | undefined): Map<string, LinkItem> {
  const out = new Map<string, LinkItem>();
  if (!e) return out;
  for (const pk of new Set(linkTargets(e))) {
    out.set(pk, { ...keys.link(pk, e.id), eventId: e.id, lang: e.lang, status: e.status, utcStart: e.utcStart, utcEnd: e.utcEnd });
  }
  return out;
}

const publishedTerms = (e: EventItem | undefined): Set<number> =>
  new Set(e && e.status === 'publish' ? [...e.categories, ...e.tags] : []);

const sameLink = (a: LinkItem, b: LinkItem) =>
  a.status === b.status && a.utcStart === b.utcStart && a.utcEnd === b.utcEnd && a.lang === b.lang;

/** A linked venue or organizer must still exist, be of that kind and not be trashed. */
const checkLinkedPost = (id: number, kind: 'venue' | 'organizer'): TransactItem => ({
  ConditionCheck: {
    TableName: '',
    Key: keys.post(id),
    ConditionExpression: 'attribute_exists(pk) AND kind = :k AND #s <> :t',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':k': kind, ':t': 'trash' },
  },
});

export interface EventTransaction {
  items: TransactItem[];
  /** For each item index, what a failed condition there means. */
  meaning: Map<number, () => Error>;
}

export const linkGone = (what: string) =>
  new ApiError(400, 'invalid-linked-post-id', `The provided linked post ID is not valid: ${what} no longer exists.`);

/**
 * `extra` holds records created in the same transaction (inline venues, organizers and terms);
 * `created` names their partition keys, which need no existence check, and new terms carry
 * their starting count themselves (one transaction may not touch an item twice).
 */
export function eventTransaction(
  old: EventItem | undefined,
  next: EventItem | undefined,
  tableName: string,
  extra: TransactItem[] = [],
  created: Set<string> = new Set(),
): EventTransaction {
  const items: TransactItem[] = [];
  const meaning = new Map<number, () => Error>();
  if (next) items.push(old ? putIfVersion(indexed(next), old.version) : put(indexed(next)));
  else if (old) items.push({ Delete: { TableName: tableName, Key: keys.post(old.id), ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': 'version' }, ExpressionAttributeValues: { ':v': old.version } } });

  const oldSlug = old && old.status !== 'trash' ? old.slug : undefined;
  const newSlug = next && next.status !== 'trash' ? next.slug : undefined;
  if (oldSlug !== newSlug || old?.lang !== next?.lang) {
    if (oldSlug) items.push(del(keys.slugGuard('event', old!.lang, oldSlug)));
    if (newSlug) items.push(put({ ...keys.slugGuard('event', next!.lang, newSlug), id: next!.id }));
  }

  const before = linkItems(old);
  const after = linkItems(next);
  for (const [pk, link] of after) {
    const prev = before.get(pk);
    if (!prev || !sameLink(prev, link)) items.push(put(link, null));
  }
  for (const [pk, link] of before) if (!after.has(pk)) items.push(del({ pk: link.pk, sk: link.sk }));

  const wasCounted = publishedTerms(old);
  const isCounted = publishedTerms(next);
  const counted = new Set<number>();
  for (const [set, other, delta] of [[isCounted, wasCounted, 1], [wasCounted, isCounted, -1]] as const) {
    for (const id of set) {
      if (other.has(id) || created.has(keys.term(id).pk)) continue;
      counted.add(id);
      meaning.set(items.length, () => linkGone(`term ${id}`));
      items.push(update(keys.term(id), 'ADD #c :d', { ':d': delta }, { '#c': 'count' }, 'attribute_exists(pk)'));
    }
  }
  // Newly linked records that no count update already checks must still exist.
  if (next) {
    const had = new Set(old ? linkTargets(old) : []);
    for (const id of next.venues) if (!had.has(keys.post(id).pk) && !created.has(keys.post(id).pk)) {
      meaning.set(items.length, () => linkGone(`venue ${id}`));
      items.push(checkLinkedPost(id, 'venue'));
    }
    for (const id of next.organizers) if (!had.has(keys.post(id).pk) && !created.has(keys.post(id).pk)) {
      meaning.set(items.length, () => linkGone(`organizer ${id}`));
      items.push(checkLinkedPost(id, 'organizer'));
    }
    for (const id of [...next.categories, ...next.tags]) if (!had.has(keys.term(id).pk) && !counted.has(id) && !created.has(keys.term(id).pk)) {
      meaning.set(items.length, () => linkGone(`term ${id}`));
      items.push({ ConditionCheck: { TableName: tableName, Key: keys.term(id), ConditionExpression: 'attribute_exists(pk)' } });
    }
  }
  items.push(...extra);
  for (const item of items) {
    const op = (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck)!;
    op.TableName = tableName;
  }
  if (items.length > 100) {
    throw new ApiError(400, 'rest_too_many_changes', 'This write changes too many linked records at once; send fewer links.');
  }
  return { items, meaning };
}
