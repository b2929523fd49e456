// Keeps the search index from the change stream: for every listed event, one item per word
// (lib/domain/search-words.ts) in the list partition `word#<word>` (`lockedword#<word>` for a
// password-protected event; the same index, attributes and order as the other list filters), and those partitions' month buckets, whose day entries are sets
// of event ids; and the language's vocabulary, the suffixes of every word it has seen, written once
// per word (a word already there is one key of a batch read). Every step is idempotent (puts,
// deletes, and set ADD/DELETE), so a batch delivered again changes nothing. Once an event's version
// is indexed, its recent-write items go (lib/store/recent-writes.ts).
import { config } from '#lib/runtime/config.js';
import { pool } from '#lib/runtime/pool.js';
import { db } from '#lib/store/db.js';
import { bucketChange, changeBucket, wordsNotInVocabulary, WIDTH, type IndexTarget } from '#lib/store/search-index.js';
import { commitAll, deleteAll, putAll } from '#lib/store/batch-writes.js';
import { indexAttributes, listed } from '#lib/logic/event-writes.js';
import { eventWords, suffixes, vocabShard, wordDim } from '#lib/domain/search-words.js';
import { bumpVocabulary, forgetRecent, forgetting } from '#lib/store/recent-writes.js';
import { durationClass, eventSeconds } from '#lib/store/durations.js';
import { bucketOf, keys, listKeys } from '#lib/store/keys.js';
import { durationBound } from '#lib/store/stats.js';
import type { EventItem } from '#lib/store/items.js';
import type { Lang } from '#lib/runtime/config.js';
import { postImage, type Change, type Trigger } from './change.js';

/** What an event contributes to the index: its word items, by word, when it is listed. */
function entries(e: EventItem | undefined): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (!listed(e)) return out;
  const shared = indexAttributes(e);
  for (const word of eventWords(e)) {
    out.set(word, { ...keys.word(e.id, word), ...shared, ...listKeys.event(e.lang, e.status, e.utcStart, e.id, wordDim(word, !!e.password)) });
  }
  return out;
}

/** The bucket day an entry is counted in: `COUNT#<partition>` / month, attribute `dDD`. */
function countedAt(item: Record<string, unknown>) {
  return bucketOf(String(item.gsi2pk), String(item.utcStart));
}

const same = (a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined) => JSON.stringify(a) === JSON.stringify(b);

export type { IndexTarget };

/**
 * Adds the words new to the index of a language to its vocabulary: a word whose own entry (the
 * suffix that is the whole word) is there has all of them, since they are written before it. Then
 * the versions of the vocabulary partitions written go up (lib/store/recent-writes.ts).
 */
export async function addToVocabulary(lang: Lang, words: readonly string[], target: IndexTarget): Promise<void> {
  const missing = await wordsNotInVocabulary(lang, words, target);
  // Every word's other suffixes, then the whole words: a batch at a time.
  const parts = missing.map((word) => suffixes(word).map((suffix) => ({ ...keys.vocab(lang, suffix, word), word })));
  await putAll(
    parts.flatMap(([, ...rest]) => rest),
    target,
    WIDTH,
  );
  await putAll(
    parts.map(([whole]) => whole!),
    target,
    WIDTH,
  );
  await bumpVocabulary(lang, new Set(missing.flatMap((word) => suffixes(word).map(vocabShard))), target);
}

/**
 * Indexes events that have no index yet, together (a backfill's page): the same items as
 * `reindex(undefined, e)` for each, written in batches, and each bucket item updated once for
 * all of the page's events it counts; then their recent writes are forgotten.
 */
export async function indexNew(events: readonly EventItem[], target: IndexTarget): Promise<void> {
  const byLang = new Map<Lang, Set<string>>();
  const puts: Record<string, unknown>[] = [];
  const buckets = new Map<string, { key: { pk: string; sk: string }; days: Map<string, Set<number>>; lasts: Set<number> }>();
  for (const e of events) {
    const words = entries(e);
    if (!words.size) continue;
    const vocabulary = byLang.get(e.lang) ?? new Set<string>();
    byLang.set(e.lang, vocabulary);
    for (const [word, item] of words) {
      vocabulary.add(word);
      puts.push(item);
      const { key, day } = countedAt(item);
      const k = `${key.pk}|${key.sk}`;
      const bucket = buckets.get(k) ?? { key, days: new Map<string, Set<number>>(), lasts: new Set<number>() };
      buckets.set(k, bucket);
      const ids = bucket.days.get(day) ?? new Set<number>();
      bucket.days.set(day, ids.add(e.id));
      bucket.lasts.add(durationClass(eventSeconds(e)));
    }
  }
  // The vocabulary first: a search finds an indexed word only through it.
  for (const [lang, words] of byLang) await addToVocabulary(lang, [...words], target);
  await putAll(puts, target, WIDTH);
  await commitAll(
    [...buckets.values()].flatMap(({ key, days, lasts }) => bucketChange(key, { add: days, durations: lasts }) ?? []),
    target,
    WIDTH,
  );
  // Indexed as they are: their recent writes (up to these versions) go, as the consumer's do, so
  // that searches stop judging them by their records (DynamoDB Local keeps what a TTL would clear).
  // A record written before records kept versions has none (and no recent write either).
  await commitAll(
    events.flatMap((e) => forgetting(e.id, [e.lang], Number(e.version ?? 0))),
    target,
    WIDTH,
  );
}

/** Brings the index from what `old` contributed to what `next` contributes. */
export async function reindex(old: EventItem | undefined, next: EventItem | undefined, target?: IndexTarget): Promise<void> {
  const table = target?.table ?? config().tableName;
  const client = target?.client ?? db();
  const before = entries(old);
  const after = entries(next);
  const id = (next ?? old)!.id;

  const puts = [...after].filter(([word, item]) => !same(before.get(word), item)).map(([, item]) => item);
  const deletes = [...before.keys()].filter((word) => !after.has(word));

  // Bucket moves, grouped per bucket item: the id leaves the old day's set and joins the new one.
  // A bucket the event joins, or whose event now lasts otherwise, also takes its duration bound.
  const moves = new Map<string, { key: { pk: string; sk: string }; add: Set<string>; remove: Set<string>; lasts?: boolean }>();
  const entry = (item: Record<string, unknown>) => {
    const { key, day } = countedAt(item);
    const k = `${key.pk}|${key.sk}`;
    const found = moves.get(k) ?? { key, add: new Set<string>(), remove: new Set<string>() };
    moves.set(k, found);
    return { found, day };
  };
  const move = (item: Record<string, unknown>, dir: 'add' | 'remove') => {
    const { found, day } = entry(item);
    found[dir].add(day);
    if (dir === 'add') found.lasts = true;
  };
  const at = (item: Record<string, unknown> | undefined) => {
    if (!item) return undefined;
    const { key, day } = countedAt(item);
    return `${key.pk}|${key.sk}|${day}`;
  };
  for (const [word, item] of before) if (at(after.get(word)) !== at(item)) move(item, 'remove');
  for (const [word, item] of after) if (at(before.get(word)) !== at(item)) move(item, 'add');
  const lasts = next && (!old || eventSeconds(old) !== eventSeconds(next));
  if (lasts) for (const item of after.values()) entry(item).found.lasts = true;
  // The consumer's bound also covers events indexed before buckets carried durations; a backfill
  // indexes every event itself, so each one's own duration is enough.
  const bound = next && [...moves.values()].some((m) => m.lasts) ? (target ? eventSeconds(next) : await durationBound(next.lang, eventSeconds(next))) : undefined;

  // The vocabulary first: a search finds an indexed word only through it.
  const fresh = [...after].filter(([word, item]) => before.get(word)?.lang !== item.lang).map(([word]) => word);
  if (next && fresh.length) await addToVocabulary(next.lang, fresh, { table, client });
  // Plain puts and deletes of distinct keys: batches of 25, as few requests as DynamoDB takes them.
  await putAll(puts, { table, client }, WIDTH);
  await deleteAll(
    deletes.map((word) => keys.word(id, word)),
    { table, client },
    WIDTH,
  );
  const ids = new Set([id]);
  await pool([...moves.values()], WIDTH, ({ key, add, remove, lasts }) =>
    changeBucket(
      key,
      {
        add: new Map([...add].map((d) => [d, ids])),
        remove: new Map([...remove].map((d) => [d, ids])),
        durations: lasts && bound !== undefined ? new Set([durationClass(bound)]) : undefined,
      },
      { table, client },
    ),
  );
}

export const searchTrigger: Trigger = {
  id: 'search',
  wants: (change: Change) => change.kind === 'event',
  apply: async (change: Change) => {
    const old = postImage(change.old, 'event');
    const next = postImage(change.new, 'event');
    await reindex(old, next);
    await forgetRecent(
      change.id,
      [old?.lang, next?.lang].filter((l) => l !== undefined),
      change.revision,
    );
  },
};
