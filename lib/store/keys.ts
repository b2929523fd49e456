// Every key template of the single table, with its access pattern named (see lib/store/table.ts for
// the attributes and indexes). Ids are zero-padded in sort keys so that they order numerically.
import type { Lang } from '#lib/runtime/config.js';
import { CREDENTIALS_PREFIX, LOGIN_PREFIX } from '#lib/contract/grants.js';
import { vocabShard } from '#lib/domain/search-words.js';
import { itemKey } from './reads.js';
import type {
  AnyPost,
  AppPasswordItem,
  ChangeEntryItem,
  ChangeGuardItem,
  CounterItem,
  CredentialRecord,
  IdPointer,
  LangStats,
  LinkItem,
  PostKind,
  RecentWriteItem,
  SeriesMemberItem,
  OpenSeriesItem,
  SlugCounterItem,
  SubPointer,
  Taxonomy,
  TermItem,
  UserIdPointer,
  ValidatorItem,
  VocabItem,
  WordItem,
} from './items.js';

export type { PostKind, Taxonomy } from './items.js';
export type Sequence = 'post' | 'term' | 'user';

export const pad = (id: number) => String(id).padStart(10, '0');

/**
 * How many partitions a language's recent writes spread over (lib/store/recent-writes.ts): one,
 * so that a search reads them in one Query (DynamoDB splits a busy partition by its sort keys).
 */
export const RECENT_SHARDS = 1;
export const recentPartition = (lang: Lang, shard: number) => `RECENT#${lang}#${shard}`;

/** How many items the table's change counter spreads over (lib/store/validators.ts). */
export const VALIDATOR_SHARDS = 8;
/** The partition of the change counter's items, read whole by one Query. */
export const VALIDATOR_PARTITION = 'VALIDATOR';

/**
 * A language's change log: one partition, its entries in the order they were appended (the sort
 * key starts with the time of the append), so that "the changes after position P" is one Query
 * of one partition, whatever the size of the log or of the table (lib/store/change-log.ts).
 */
export const changeLogPartition = (lang: Lang) => `CHANGES#${lang}`;

export const keys = {
  /** An event, venue or organizer: they share the post id sequence, as in WordPress. */
  post: (id: number) => itemKey<AnyPost>(`POST#${id}`, 'POST'),
  /** A category or tag: they share the term id sequence. */
  term: (id: number) => itemKey<TermItem>(`TERM#${id}`, 'TERM'),
  counter: (sequence: Sequence) => itemKey<CounterItem>(`COUNTER#${sequence}`, 'COUNTER'),
  /** Guards that make a slug unique per (kind, language); written in the record's transaction. */
  slugGuard: (kind: PostKind | Taxonomy, lang: Lang, slug: string) => itemKey<IdPointer>(`SLUG#${kind}#${lang}#${slug}`, 'SLUG'),
  /** A venue's or organizer's title, for de-duplication: one partition per kind, language and title key. */
  placeTitle: (kind: PostKind, lang: Lang, titleKey: string, id: number) => itemKey<IdPointer>(`PTITLE#${kind}#${lang}#${titleKey}`, String(id)),
  /**
   * The ticket counter of a wanted slug (never in a transaction): writers that lost a race for
   * `slug` or one of its `-N` candidates take numbered tickets from it, so that each tries its own
   * candidate instead of all colliding on the next free one (lib/store/slugs.ts, `freeSlug`).
   */
  slugCounter: (kind: PostKind | Taxonomy, lang: Lang, slug: string) => itemKey<SlugCounterItem>(`SLUGSEQ#${kind}#${lang}#${slug}`, 'SLUGSEQ'),
  /** Guards that make a term name unique per (taxonomy, language, parent), as WordPress's term_exists. */
  termName: (taxonomy: Taxonomy, lang: Lang, parent: number, name: string) => itemKey<IdPointer>(`TERMNAME#${taxonomy}#${lang}#${parent}#${name.trim().toLowerCase()}`, 'TERMNAME'),
  /** A user: token subject -> integer id, and back. */
  userBySub: (sub: string) => itemKey<UserIdPointer>(`USER#${sub}`, 'USER'),
  userById: (id: number) => itemKey<SubPointer>(`USERID#${id}`, 'USERID'),
  /** A login name or e-mail, lower-cased as WordPress compares them -> the token subject of its user. */
  login: (login: string) => itemKey<SubPointer>(`${LOGIN_PREFIX}${login.toLowerCase()}`, 'LOGIN'),
  /**
   * A user's sign-in data in one partition, read by one Query on every HTTP Basic request: the
   * credential record (login, the role last seen in a bearer token), the application passwords
   * and a guard per password name (names are unique per user, as in WordPress).
   */
  credentials: (sub: string) => itemKey<CredentialRecord>(`${CREDENTIALS_PREFIX}${sub}`, 'USER'),
  appPassword: (sub: string, uuid: string) => itemKey<AppPasswordItem>(`${CREDENTIALS_PREFIX}${sub}`, `APPPW#${uuid}`),
  appPasswordName: (sub: string, name: string) => itemKey<{ uuid: string }>(`${CREDENTIALS_PREFIX}${sub}`, `APPNAME#${name}`),
  appPasswordPrefix: 'APPPW#',
  /**
   * A link item in the linked record's partition (venue, organizer or term) naming one event, so
   * that "events of this venue" is one Query and trashing the venue can unlink its events.
   */
  link: (targetPk: string, eventId: number) => itemKey<LinkItem>(targetPk, `EVENT#${pad(eventId)}`),
  linkPrefix: 'EVENT#',
  /**
   * An event of a series in the partition of its series (the first event's id), written and
   * removed in the event's own transaction, so that "every event of this series" is one paged
   * Query (lib/logic/series-scope.ts). A trashed event keeps it; a deleted one loses it.
   */
  seriesMember: (seriesId: number, eventId: number) => itemKey<SeriesMemberItem>(`SERIES#${seriesId}`, `OCC#${pad(eventId)}`),
  seriesMemberPrefix: 'OCC#',
  /**
   * A series whose rules have no end (no COUNT or UNTIL), one item each in one partition, kept by
   * the stream consumer: what the daily move of the horizon reads (lib/logic/series-horizon.ts).
   */
  openSeries: (seriesId: number) => itemKey<OpenSeriesItem>('SERIESOPEN', pad(seriesId)),
  openSeriesPartition: 'SERIESOPEN',
  /**
   * An event written since the stream consumer last indexed it for search: `RECENT_SHARDS`
   * partitions per language (by event id), each read whole by a search (lib/store/recent-writes.ts).
   */
  recentWrite: (lang: Lang, eventId: number) => itemKey<RecentWriteItem>(recentPartition(lang, eventId % RECENT_SHARDS), pad(eventId)),
  /** The search index item of one word of an event (its `word#<word>` list entry): lib/stream/search-trigger.ts. */
  word: (eventId: number, word: string) => itemKey<WordItem>(`WORD#${eventId}`, word),
  /**
   * A language's search vocabulary: one item per suffix of each word its events were ever indexed
   * by, in the partition of the suffix's first two characters, so that the words containing a
   * piece are one `begins_with` range (lib/domain/search-words.ts).
   */
  vocab: (lang: Lang, suffix: string, word: string) => itemKey<VocabItem>(`VOCAB#${lang}#${vocabShard(suffix)}`, `${suffix}#${word}`),
  /** The featured index item of an event (its `featured#1` or `featured#0` list entry). */
  featured: (eventId: number) => itemKey<LinkItem>(`POST#${eventId}`, 'IDX#featured'),
  /**
   * Figures per language: `seconds`, the longest event duration seen (event writes add it to
   * their count buckets, which bound the end-date corrections of list totals), and `termBytes`,
   * about how large the language's terms are together (it decides how some lists read terms).
   */
  langStats: (lang: Lang) => itemKey<LangStats>('STATS', lang),
  /**
   * One shard of the table's change counter, which every write bumps after it commits and the
   * stream consumer bumps again for every change (lib/store/validators.ts): the entity tags of
   * reads are made from it, so that a conditional GET reads it rather than the answer.
   */
  validator: (shard: number) => itemKey<ValidatorItem>(VALIDATOR_PARTITION, String(shard)),
  /** An entry of a language's change log, at its position. */
  changeEntry: (lang: Lang, position: string) => itemKey<ChangeEntryItem>(changeLogPartition(lang), position),
  /** The change log's claim of one stream record (by its id), written with its entries. */
  changeGuard: (changeId: string) => itemKey<ChangeGuardItem>(`CHLOG#${changeId}`, 'CHLOG'),
};

/**
 * The count bucket of a list partition for one month: `n` counts the month's events and
 * `dDD` each day's, by UTC start; `ds` bounds their durations (lib/store/durations.ts). Shard
 * `k` > 0 of the month (`YYYY-MM#k`) takes the deltas of writes that spread over shards after
 * meeting others on the bucket (lib/logic/event-writes.ts): a month's counts are the sums over
 * its bucket and shards, which one range query reads (`bucketRange`).
 */
export function bucketOf(partition: string, utcStart: string, shard = 0) {
  const month = utcStart.slice(0, 7);
  return { key: { pk: `COUNT#${partition}`, sk: shard ? `${month}#${shard}` : month }, day: `d${utcStart.slice(8, 10)}` };
}

/** The month of a count bucket or shard, from its sort key. */
export const bucketMonth = (sk: string) => sk.slice(0, 7);

/** The sort keys of the buckets and shards of the months from `utcFrom` to `utcTo` ('$' follows '#'). */
export const bucketRange = (utcFrom: string, utcTo: string) => ({ from: utcFrom.slice(0, 7), to: `${utcTo.slice(0, 7)}$` });

/** Partition values of the `bySlug` index. */
export const slugIndexKey = (kind: PostKind | Taxonomy, lang: Lang, slug: string) => `${kind}#${lang}#${slug}`;

/** Partition and sort values of the `list` index. */
export const listKeys = {
  /** `dim` names a filter list (`venue#5`, `category#2`, `featured#1`); none is the whole list. */
  event: (lang: Lang, status: string, utcStart: string, id: number, dim?: string) => ({
    gsi2pk: dim ? `LIST#event#${lang}#${status}#${dim}` : `LIST#event#${lang}#${status}`,
    gsi2sk: `${utcStart}#${pad(id)}`,
  }),
  /** Venues and organizers list newest first by publish date. */
  place: (kind: 'venue' | 'organizer', lang: Lang, status: string, dateUtc: string, id: number) => ({
    gsi2pk: `LIST#${kind}#${lang}#${status}`,
    gsi2sk: `${dateUtc}#${pad(id)}`,
  }),
  partition: (kind: PostKind, lang: Lang, status?: string, dim?: string) => [`LIST#${kind}#${lang}`, status, dim].filter((x) => x !== undefined).join('#'),
};

/** Partition and sort values of the `terms` index: a language's terms by taxonomy, then name. */
export const termKeys = {
  item: (taxonomy: Taxonomy, lang: Lang, name: string, id: number) => ({
    gsi3pk: `TERMS#${lang}`,
    gsi3sk: `${taxonomy}#${name.toLowerCase()}#${pad(id)}`,
  }),
  partition: (lang: Lang) => `TERMS#${lang}`,
  /** The sort-key range of one taxonomy ('$' follows '#'). */
  range: (taxonomy: Taxonomy) => ({ from: `${taxonomy}#`, to: `${taxonomy}$` }),
};
