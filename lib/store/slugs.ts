// Slug allocation: the guard item that reserves a slug, and the choice of a free one to try.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { slugCandidates } from '#lib/domain/slug.js';
import { waitAll } from '#lib/runtime/settle.js';
import { db } from './db.js';
import { keys, type PostKind, type Taxonomy } from './keys.js';
import { batchGet, keyOf, type Key } from './reads.js';

/** Candidates read per step of a slug search. */
const SLUG_PAGE = 10;
/** A wanted slug whose counter handed out a ticket this recently is contended: skip the search. */
const SLUG_HOT_MS = 5_000;
/** Candidates a search reads before it takes a ticket instead (its RCU grow with the candidates). */
const SLUG_SEARCH_LIMIT = 1_000;

interface SlugCounter {
  /** The highest candidate number handed out (1 is the bare slug, 2 is `-2`, …). */
  n?: number;
  /** When the last ticket was handed out (ms since the epoch). */
  at?: number;
}

/** Reads guards in parallel BatchGets of up to 100 keys. */
async function readGuards(list: Key[]): Promise<Map<string, { id: number }>> {
  const parts: Key[][] = [];
  for (let i = 0; i < list.length; i += 100) parts.push(list.slice(i, i + 100));
  const found = await waitAll(parts.map((p) => batchGet<{ id: number }>(p)));
  return new Map(found.flatMap((m) => [...m]));
}

/**
 * A ticket from the wanted slug's counter: a candidate number no other ticket holder gets, at
 * least `floor` (the first candidate the caller saw free). The counter only grows: it is set to
 * `floor` while it is below it, else incremented; either way the value is new.
 */
async function slugTicket(counter: Key, floor: number, seen: number | undefined): Promise<number> {
  const now = Date.now();
  // An increment gives at least `seen + 1` (the counter only grows): setting is only worth a try
  // when the floor is above that.
  if (seen === undefined || floor > seen + 1) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: counter,
          UpdateExpression: 'SET #n = :f, #at = :now',
          ConditionExpression: 'attribute_not_exists(#n) OR #n < :f',
          ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
          ExpressionAttributeValues: { ':f': floor, ':now': now },
        }),
      );
      return floor;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
  const out = await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: counter,
      UpdateExpression: 'ADD #n :one SET #at = :now',
      ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
      ExpressionAttributeValues: { ':one': 1, ':now': now },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes!.n);
}

/**
 * A slug for a record that wants `wanted` (`ownerId` keeps a record's own slug). The transaction
 * that writes the slug's guard settles any race; this only chooses well which candidate to try.
 *
 * - Without contention it is WordPress's answer: the first free of `wanted`, `wanted-2`,
 *   `wanted-3`… (ten guards per read, then ever larger parallel reads).
 * - After a lost race (`attempt` > 1), or while other writers of the same wanted slug are taking
 *   tickets (one was handed out in the last few seconds), each writer takes a ticket from the
 *   wanted slug's counter (one atomic update) and tries that candidate: contenders spread over
 *   distinct candidates at once instead of all colliding again on the next free one, and the
 *   first ticket is the first free candidate. A ticket's candidate may still be taken (a slug
 *   someone chose, or one written without a ticket); from the third attempt on, the ticket is
 *   taken above the first free candidate found past the counter.
 */
export async function freeSlug(kind: PostKind | Taxonomy, lang: Lang, wanted: string, ownerId?: number, attempt = 1): Promise<string> {
  const counterKey = keys.slugCounter(kind, lang, wanted);
  const guardKey = (s: string) => keys.slugGuard(kind, lang, s);
  const page = slugCandidates(wanted, SLUG_PAGE, 1);
  const read = await batchGet<{ id: number } & SlugCounter>([counterKey, ...page.map(guardKey)]);
  const counter = read.get(keyOf(counterKey));
  const seen = counter?.n === undefined ? undefined : Number(counter.n);
  /** The first candidate of `list` (numbered from `from`) that is free or the owner's own. */
  const firstOpen = (list: string[], guards: Map<string, { id: number }>, from: number) => {
    const i = list.findIndex((s) => {
      const g = guards.get(keyOf(guardKey(s)));
      return !g || g.id === ownerId;
    });
    return i < 0 ? undefined : { slug: list[i]!, n: from + i, own: guards.get(keyOf(guardKey(list[i]!)))?.id === ownerId && ownerId !== undefined };
  };
  const open = firstOpen(page, read, 1);
  // A guard the record holds already cannot be lost to anyone.
  if (open?.own) return open.slug;
  const hot = counter?.at !== undefined && Date.now() - Number(counter.at) < SLUG_HOT_MS;

  if (attempt <= 1 && !hot) {
    if (open) return open.slug;
    // Past the first page: read up to the counter's candidates in one step, then ever more.
    let from = SLUG_PAGE + 1;
    let size = Math.max(SLUG_PAGE * 2, (seen ?? 0) + SLUG_PAGE - from + 1);
    while (from <= SLUG_SEARCH_LIMIT) {
      size = Math.min(size, SLUG_SEARCH_LIMIT - from + 1);
      const list = slugCandidates(wanted, size, from);
      const found = firstOpen(list, await readGuards(list.map(guardKey)), from);
      if (found) return found.slug;
      from += size;
      size *= 2;
    }
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
 * A new record's id and a free slug for it, read at once (one round trip instead of two): the
 * slug waits for the id only when `wanted` is empty, since it then falls back to the id. `id` is
 * the pending allocation (a create keeps one id over its retries).
 */
export async function idAndSlug(id: Promise<number>, kind: PostKind | Taxonomy, lang: Lang, wanted: string, attempt = 1): Promise<[number, string]> {
  if (wanted) return waitAll([id, freeSlug(kind, lang, wanted, undefined, attempt)]);
  const n = await id;
  return [n, await freeSlug(kind, lang, String(n), undefined, attempt)];
}
