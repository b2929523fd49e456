// Slug allocation: the guard item that reserves a slug, and the choice of a free one to try.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { slugCandidates } from '#lib/domain/slug.js';
import { waitAll } from '#lib/runtime/settle.js';
import { db } from './db.js';
import { keys, type PostKind, type Taxonomy } from './keys.js';
import { batchGet, Found, type ItemKey, type Key } from './reads.js';
import type { IdPointer, SlugCounterItem } from './items.js';

type SlugCounter = Omit<SlugCounterItem, 'pk' | 'sk'>;

/** Candidates read per step of a slug search. */
const SLUG_PAGE = 10;
/** A wanted slug whose counter handed out a ticket this recently is contended: skip the search. */
const SLUG_HOT_MS = 5_000;
/** Candidates a search reads before it takes a ticket instead (its RCU grow with the candidates). */
const SLUG_SEARCH_LIMIT = 1_000;

/** Reads guards in parallel BatchGets of up to 100 keys. */
async function readGuards(list: ItemKey<IdPointer>[]): Promise<Found<IdPointer>> {
  const parts: ItemKey<IdPointer>[][] = [];
  for (let i = 0; i < list.length; i += 100) parts.push(list.slice(i, i + 100));
  const found = await waitAll(parts.map((p) => batchGet(p)));
  return new Found(found.flatMap((m) => [...m]));
}

/** An update of a counter's attributes `names` (each `#<name>` in the expressions); `:now` is `now`. */
const counterUpdate = (counter: Key, names: (keyof SlugCounter & string)[], expression: string, values: Record<string, unknown>, condition?: string, now = Date.now()) =>
  db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: counter,
      UpdateExpression: expression,
      ...(condition ? { ConditionExpression: condition } : {}),
      ExpressionAttributeNames: Object.fromEntries(names.map((a) => [`#${a}`, a])),
      ExpressionAttributeValues: { ...values, ':now': now },
      ReturnValues: 'UPDATED_NEW',
    }),
  );

/** Runs a conditional counter update: false when its condition failed. */
async function ifHeld(update: Promise<unknown>): Promise<boolean> {
  try {
    await update;
    return true;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    return false;
  }
}

/**
 * A ticket from the wanted slug's counter: a candidate number no other ticket holder gets, at
 * least `floor` (the first candidate the caller saw free). The counter is set to `floor` while it
 * is below it, else incremented; either way the value is new.
 */
async function slugTicket(counter: Key, floor: number, seen: number | undefined): Promise<number> {
  // An increment gives at least `seen + 1`: setting is only worth a try when the floor is above that.
  if (
    (seen === undefined || floor > seen + 1) &&
    (await ifHeld(counterUpdate(counter, ['n', 'at'], 'SET #n = :f, #at = :now', { ':f': floor }, 'attribute_not_exists(#n) OR #n < :f')))
  )
    return floor;
  const out = await counterUpdate(counter, ['n', 'at'], 'ADD #n :one SET #at = :now', { ':one': 1 });
  return Number(out.Attributes!.n);
}

/**
 * Claims candidate `n`, the first free one, through the counter, on the condition that nobody
 * claimed one or took a ticket since the counter was read as `seen`: of writers that read at once,
 * one claims and the others take tickets (above `n`) instead of all trying the same candidate.
 */
function claim(counter: Key, n: number, seen: SlugCounter | undefined): Promise<boolean> {
  const unchanged = (a: 'c' | 'at') => (seen?.[a] === undefined ? `attribute_not_exists(#${a})` : `#${a} = :${a}`);
  const values = { ':n': n, ...(seen?.c === undefined ? {} : { ':c': seen.c }), ...(seen?.at === undefined ? {} : { ':at': seen.at }) };
  return ifHeld(counterUpdate(counter, ['n', 'c', 'at'], 'SET #n = :n, #c = :now', values, `${unchanged('c')} AND ${unchanged('at')}`));
}

/**
 * A slug for a record that wants `wanted` (`ownerId` keeps a record's own slug). The transaction
 * that writes the slug's guard settles any race; this only chooses well which candidate to try.
 *
 * - Without contention it is WordPress's answer: the first free of `wanted`, `wanted-2`,
 *   `wanted-3`… (ten guards per read, then ever larger parallel reads), claimed through the
 *   wanted slug's counter (one conditional update, outside the transaction). Of writers that read
 *   at the same time, the one whose claim lands first tries it. The first writer of a wanted slug
 *   claims the bare slug beside its read (creating the counter), so it waits for no more than
 *   the read.
 * - The others, writers that lost a race (`attempt` > 1), and writers that come while others of
 *   the same wanted slug are taking tickets (one was handed out in the last few seconds) take a
 *   ticket from the counter (one atomic update) and try that candidate: a burst of writers spreads
 *   over distinct candidates in its first attempt instead of all colliding on the first free one,
 *   and the first ticket is the first free candidate after the claimed one. A ticket's candidate
 *   may still be taken (a slug someone chose, or one written without a ticket); from the third
 *   attempt on, the ticket is taken above the first free candidate found past the counter.
 */
export async function freeSlug(kind: PostKind | Taxonomy, lang: Lang, wanted: string, ownerId?: number, attempt = 1): Promise<string> {
  const counterKey = keys.slugCounter(kind, lang, wanted);
  const guardKey = (s: string) => keys.slugGuard(kind, lang, s);
  const page = slugCandidates(wanted, SLUG_PAGE, 1);
  // Beside the read, the first writer of a wanted slug ever claims the bare slug (the counter is new).
  const now = Date.now();
  const [read, first] = await waitAll([
    batchGet<IdPointer | SlugCounterItem>([counterKey, ...page.map(guardKey)]),
    attempt > 1 ? false : ifHeld(counterUpdate(counterKey, ['n', 'c'], 'SET #n = :one, #c = :now', { ':one': 1 }, 'attribute_not_exists(#n) AND attribute_not_exists(#c)', now)),
  ]);
  let counter: SlugCounter | undefined = read.get(counterKey);
  /** The first candidate of `list` (numbered from `from`) that is free or the owner's own. */
  const firstOpen = (list: string[], guards: { get(key: ItemKey<IdPointer>): IdPointer | undefined }, from: number) => {
    const i = list.findIndex((s) => {
      const g = guards.get(guardKey(s));
      return !g || g.id === ownerId;
    });
    return i < 0 ? undefined : { slug: list[i]!, n: from + i, own: guards.get(guardKey(list[i]!))?.id === ownerId && ownerId !== undefined };
  };
  const open = firstOpen(page, read, 1);
  // A guard the record holds already cannot be lost to anyone.
  if (open?.own) return open.slug;
  if (first) {
    if (open?.n === 1) return open.slug;
    // The bare slug is taken (by a record written without the counter): claim the first free one.
    counter = { n: 1, c: now };
  }
  const seen = counter?.n === undefined ? undefined : Number(counter.n);
  const hot = counter?.at !== undefined && Date.now() - Number(counter.at) < SLUG_HOT_MS;

  if (attempt <= 1 && !hot) {
    let found = open;
    // Past the first page: read up to the counter's candidates in one step, then ever more.
    let from = SLUG_PAGE + 1;
    let size = Math.max(SLUG_PAGE * 2, (seen ?? 0) + SLUG_PAGE - from + 1);
    while (!found && from <= SLUG_SEARCH_LIMIT) {
      size = Math.min(size, SLUG_SEARCH_LIMIT - from + 1);
      const list = slugCandidates(wanted, size, from);
      found = firstOpen(list, await readGuards(list.map(guardKey)), from);
      from += size;
      size *= 2;
    }
    if (found && (await claim(counterKey, found.n, counter))) return found.slug;
  }

  let floor = open?.n ?? Math.max(SLUG_PAGE, seen ?? 0) + 1;
  if (!open && attempt > 2) {
    // Tickets above the counter keep meeting taken candidates: find the first free one there.
    for (let size = SLUG_PAGE; ; size = Math.min(size * 2, 400)) {
      const list = slugCandidates(wanted, size, floor);
      const found = firstOpen(list, await readGuards(list.map(guardKey)), floor);
      if (found) {
        floor = found.n;
        break;
      }
      floor += size;
    }
  }
  const ticket = await slugTicket(counterKey, floor, seen);
  return slugCandidates(wanted, 1, ticket)[0]!;
}

/**
 * An imported record's slug, unread: unique on its site, it is free here but for a conflict, and
 * the transaction's guard (a conditional Put) settles that. Its retry takes the first free slug as
 * a first try of any wanted slug does (and later retries as freeSlug's retries do). The counter is
 * left alone until then: a later writer of the same wanted slug finds it taken without the
 * counter, as freeSlug allows.
 */
const givenSlug = async (kind: PostKind | Taxonomy, lang: Lang, given: string, attempt: number): Promise<string> =>
  attempt <= 1 ? given : freeSlug(kind, lang, given, undefined, attempt - 1);

/**
 * A new record's id and a free slug for it, read at once (one round trip instead of two): the
 * slug waits for the id only when `wanted` is empty, since it then falls back to the id. `id` is
 * the pending allocation (a create keeps one id over its retries). `given`: an imported record's
 * slug, which it keeps (unique on its site: taken here means a conflict).
 */
export async function idAndSlug(id: Promise<number>, kind: PostKind | Taxonomy, lang: Lang, wanted: string, attempt = 1, given?: string): Promise<[number, string]> {
  if (given) return waitAll([id, givenSlug(kind, lang, given, attempt)]);
  if (wanted) return waitAll([id, freeSlug(kind, lang, wanted, undefined, attempt)]);
  const n = await id;
  return [n, await freeSlug(kind, lang, String(n), undefined, attempt)];
}
