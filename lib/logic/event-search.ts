// GET /events?search=: the events whose title, excerpt or content hold every term of the search
// and none of its exclusions (lib/domain/search-terms.ts), in the list's order.
//
// The index (lib/stream/search-trigger.ts) keeps one list partition per whole word, and a
// vocabulary of every suffix of every word of the language. A term's longest run of letters and
// digits lies inside one word of any text it occurs in, so the term's events are among those of the
// words that contain the run: one `begins_with` range of the vocabulary names them. A term with
// few such words is "selective"; its events are those words' partitions merged in list order, read
// a chunk at a time as far as the page needs. The search is driven by its most selective term; the
// other terms are checked on the candidates, by the index (a range of their words' partitions
// between the first and the last candidate of a chunk) when the index decides them, else on the
// records. A search without any selective term reads the ordinary list and checks the records:
// then most events match, so a page is found after a few chunks. Either way a page costs what it
// takes to find its matches (the inverse of their share of the candidates), not the table's size.
//
// The index follows the table a moment behind, so the events written since it last caught up
// (lib/store/recent-writes.ts) are judged by their records as they are now instead: a new or renamed
// event is found at once, and an old word or a trashed event stops matching at once.
//
// Totals: one term that is a single word's partition (`jazz`, or `azz` when only `jazz` contains it)
// counts from the partition's count buckets, as a filtered list does. Otherwise the total is exact
// when the candidates ran out before the page was full, and else estimated from the driving term's
// counts and the share of its candidates that matched.
import { exactByWords, keyRun, MAX_WORD_LENGTH } from '#lib/domain/search-words.js';
import { matchesSearch, type SearchTerms } from '#lib/domain/search-terms.js';
import type { Lang } from '#lib/runtime/config.js';
import { batchGet, keyOf, query, queryAll } from '#lib/store/reads.js';
import type { LangStats } from '#lib/store/stats.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { recentIds } from '#lib/store/recent-writes.js';
import type { EventItem } from '#lib/store/items.js';
import { waitAll } from '#lib/runtime/settle.js';
import { matchesFilters } from './event-in-memory.js';
import { readFitting, SearchRoom } from './feed-reads.js';
import { nonEmpty, pageAndTotal, pageKeys, type Source } from './lists.js';
import { listTotal } from './event-totals.js';
import type { Filters } from './event-filters.js';
import { queryInputOf, sources, type EventSource } from './event-sources.js';
import type { EventListRequest, Window } from './event-window.js';

/** The most list partitions (words × statuses) one term's candidates are merged from; more: not selective. */
const MAX_TERM_PARTITIONS = 16;
/** Vocabulary entries read for a term: a piece found in more is not selective anyway. */
const VOCAB_READ = 200;
/** The most word partitions (words × statuses) of the other terms the index checks for each chunk. */
const CHECKED_PARTITIONS = 8;
/** The most candidates judged at once (one batch read of records, one range read per checked partition). */
const MAX_CHUNK = 100;

/** A term, and the words whose partitions hold its events (none known: the term is not selective). */
export interface TermPlan {
  term: string;
  words?: string[];
  /** Whether those partitions hold exactly the term's events (else the records tell). */
  exact: boolean;
}

type IndexItem = Record<string, unknown> & { id: number; gsi2sk: string };

/** The words of a language's vocabulary that contain the term's key run. */
export async function planTerm(lang: Lang, term: string, statuses: number): Promise<TermPlan> {
  const exact = exactByWords(term);
  const run = keyRun(term);
  // One character is in nearly every text; it is not looked up.
  if (run === undefined || [...run].length < 2) return { term, exact };
  const piece = [...run].slice(0, MAX_WORD_LENGTH).join('');
  const { items, last } = await query<{ word: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :piece)',
    ExpressionAttributeValues: { ':pk': keys.vocab(lang, piece, '').pk, ':piece': piece },
    ProjectionExpression: 'word',
    Limit: VOCAB_READ,
  });
  const words = [...new Set(items.map((i) => String(i.word)))];
  if (last || words.length * statuses > MAX_TERM_PARTITIONS) return { term, exact };
  return { term, words, exact: exact && [...run].length <= MAX_WORD_LENGTH };
}

/**
 * How many candidates to judge next: the page's missing matches at the share that matched so far
 * (twice as many before any is known; exactly as many when every candidate matches).
 */
export function chunkSize(needed: number, consumed: number, matched: number, judged: boolean): number {
  if (!judged) return Math.min(MAX_CHUNK, needed);
  return Math.min(MAX_CHUNK, consumed ? Math.ceil((needed * consumed) / Math.max(matched, 1)) : 2 * needed);
}

/**
 * The total of a search whose candidates did not run out: their count times the share of them that
 * matched, plus the recent matches, and at least one more than found (there may be more).
 */
export function estimatedTotal(candidates: number, consumed: number, matched: number, recent: number): number {
  return Math.max(matched + recent + 1, Math.round((candidates * matched) / Math.max(consumed, 1)) + recent);
}

/** Whether a record is in the list the request reads (language, status, author, window, filters). */
function inList(e: EventItem, ctx: EventListRequest, statusList: string[], ownBy: number | undefined, f: Filters, w: Window | undefined): boolean {
  if (e.kind !== 'event' || e.lang !== ctx.lang || e.status === 'trash' || e.hidden || !statusList.includes(e.status)) return false;
  if (ownBy !== undefined && e.status !== 'publish' && e.author !== ownBy) return false;
  if (w) {
    const at = sortKey(e);
    if (at < w.from || at > w.to) return false;
    if (w.endAtMost !== undefined && !(e.utcEnd <= w.endAtMost)) return false;
    if (w.endBefore !== undefined && !(e.utcEnd < w.endBefore)) return false;
    if (w.endAfter !== undefined && !(e.utcEnd > w.endAfter)) return false;
  }
  return matchesFilters(e, f);
}

const sortKey = (e: EventItem) => listKeys.event(e.lang, e.status, e.utcStart, e.id).gsi2sk;
const byOrder = (a: [number, string, ...unknown[]], b: [number, string, ...unknown[]]) => a[1].localeCompare(b[1]) || a[0] - b[0];

/** The partitions of a list merged in sort-key order, each read a chunk at a time as the merge needs. */
class Merged {
  private readonly cursors: { s: Source; items: IndexItem[]; start?: Record<string, unknown>; done: boolean }[];
  private readonly seen = new Set<number>();

  constructor(list: Source[]) {
    this.cursors = list.filter(nonEmpty).map((s) => ({ s, items: [], done: false }));
  }

  /** The next event of the merge (each once), or none; a partition that needs reading reads `limit` items. */
  async next(limit: number): Promise<IndexItem | undefined> {
    for (;;) {
      await waitAll(
        this.cursors
          .filter((c) => !c.items.length && !c.done)
          .map(async (c) => {
            const out = await query<IndexItem>({ ...queryInputOf(c.s), Limit: limit * (c.s.filter ? 2 : 1), ExclusiveStartKey: c.start });
            c.items = c.s.keep ? out.items.filter(c.s.keep) : out.items;
            c.start = out.last;
            c.done = !out.last;
          }),
      );
      let head: (typeof this.cursors)[number] | undefined;
      for (const c of this.cursors) if (c.items.length && (!head || byOrder([c.items[0]!.id, c.items[0]!.gsi2sk], [head.items[0]!.id, head.items[0]!.gsi2sk]) < 0)) head = c;
      if (!head) return undefined;
      const item = head.items.shift()!;
      if (this.seen.has(Number(item.id))) continue;
      this.seen.add(Number(item.id));
      return item;
    }
  }
}

type Hit = [number, string, EventItem | undefined];

/**
 * The records of a page's hits, in its order (those not read yet in one batch). A feed keeps the
 * longest prefix that one answer can hold (lib/logic/feed-reads.ts).
 */
async function recordsOf(page: Hit[], feed: boolean): Promise<EventItem[]> {
  const list = page.map(([id]) => keys.post(id));
  const known = new Map(page.flatMap(([id, , e]) => (e ? [[keyOf(keys.post(id)), e] as const] : [])));
  let found = known;
  let count = list.length;
  if (feed) ({ found, count } = await readFitting<EventItem>(list, undefined, known));
  else {
    const unread = list.filter((k) => !known.has(keyOf(k)));
    if (unread.length) found = new Map([...known, ...(await batchGet<EventItem>(unread))]);
  }
  return list
    .slice(0, count)
    .map((k) => found.get(keyOf(k)))
    .filter((e): e is EventItem => e !== undefined);
}

/** The ids among a term's word partitions between two sort keys (inclusive). */
async function idsBetween(src: Source[], from: string, to: string): Promise<Set<number>> {
  const ranged = src.map((s) => ({ ...s, from: s.from && s.from > from ? s.from : from, to: s.to && s.to < to ? s.to : to })).filter(nonEmpty);
  const read = await waitAll(ranged.map((s) => queryAll<IndexItem>(queryInputOf(s))));
  return new Set(read.flat().map((i) => Number(i.id)));
}

/** A page of one term whose events are one word's partition, and its total from the partition's counts. */
async function wordPage(
  ctx: EventListRequest,
  term: string,
  word: string,
  statusList: string[],
  ownBy: number | undefined,
  f: Filters,
  w: Window | undefined,
  offset: number,
  perPage: number,
  stats: () => Promise<LangStats>,
  recent: number[],
  feed: boolean,
): Promise<{ events: EventItem[]; total: number }> {
  const { sources: src, multi } = sources(ctx, statusList, { ...f, word }, w, ownBy);
  // The index's entries of the recent events are skipped, so the page reads that many more keys.
  const want = offset + perPage + recent.length;
  const [read, counted, indexed, records] = await waitAll([
    multi ? pageAndTotal(src, 0, want, false) : pageKeys(src, 0, want, false).then((hits) => ({ hits, total: undefined })),
    multi ? Promise.resolve(undefined) : listTotal(src, w, stats),
    batchGet<Record<string, unknown>>(
      recent.map((id) => keys.word(id, word)),
      true,
    ),
    batchGet<EventItem>(recent.map(keys.post), true),
  ]);
  const isRecent = new Set(recent);
  // What the counts hold of the recent events (their index entries), and what they hold now.
  const counts = (e: EventItem) => inList(e, ctx, statusList, ownBy, f, w);
  const stale = [...indexed.values()].filter((item) => item.gsi2pk !== undefined && counts({ ...item, kind: 'event' } as unknown as EventItem)).length;
  const fresh = [...records.values()].filter((e) => counts(e) && matchesSearch(e, { include: [term], exclude: [] }));
  const merged: Hit[] = [
    ...read.hits.filter((h) => !isRecent.has(h.id)).map((h): [number, string, undefined] => [h.id, String(h.item.gsi2sk), undefined]),
    ...fresh.map((e): Hit => [e.id, sortKey(e), e]),
  ];
  merged.sort(byOrder);
  // A partition read to its end counts itself (the counts may be a moment behind its items while
  // the consumer writes them).
  const total = read.hits.length < want ? merged.length : Math.max(merged.length, (read.total ?? counted ?? 0) - stale + fresh.length);
  return { events: await recordsOf(merged.slice(offset, offset + perPage), feed), total };
}

export async function listSearched(
  ctx: EventListRequest,
  terms: SearchTerms,
  statusList: string[],
  ownBy: number | undefined,
  f: Filters,
  w: Window | undefined,
  offset: number,
  perPage: number,
  stats: () => Promise<LangStats>,
  feed = false,
): Promise<{ events: EventItem[]; total: number }> {
  const recentRead = recentIds(ctx.lang);
  const [include, exclude] = await waitAll([
    waitAll(terms.include.map((t) => planTerm(ctx.lang, t, statusList.length))),
    waitAll(terms.exclude.map((t) => planTerm(ctx.lang, t, statusList.length))),
  ]);
  const recent = await recentRead;
  const [only] = include;
  if (include.length === 1 && !exclude.length && only!.exact && only!.words?.length === 1) {
    return wordPage(ctx, only!.term, only!.words[0]!, statusList, ownBy, f, w, offset, perPage, stats, recent, feed);
  }
  const isRecent = new Set(recent);
  const freshRead = batchGet<EventItem>(recent.map(keys.post), true);
  const want = offset + perPage;
  // The driving term: the fewest words, then the longest piece.
  const selective = include.filter((p) => p.words !== undefined).sort((a, b) => a.words!.length - b.words!.length || b.term.length - a.term.length);
  const driver = selective[0];
  const matched: Hit[] = [];
  let consumed = 0;
  let exhausted = false;
  let driverSources: EventSource[] = [];
  // The last candidate judged; where a feed stopped judging (null: before any), its events end.
  let lastJudged: IndexItem | undefined;
  let cut: IndexItem | null | undefined;
  // A term no word contains matches no indexed event.
  if (!include.some((p) => p.words?.length === 0)) {
    driverSources = driver ? driver.words!.flatMap((word) => sources(ctx, statusList, { ...f, word }, w, ownBy).sources) : sources(ctx, statusList, f, w, ownBy).sources;
    // The other terms the index decides, each its words' partitions; the rest is checked on the records.
    // Each is a range read per word and status for each chunk of candidates: past a few partitions
    // in all, one batch read of the records checks the rest at once.
    let room = CHECKED_PARTITIONS;
    const fits = (p: TermPlan) => p.exact && p.words !== undefined && p.words.length > 0 && (room -= p.words.length * statusList.length) >= 0;
    const others = selective.slice(1).filter(fits);
    const excluded = exclude.filter(fits);
    const byIndex = new Set<TermPlan>([...(driver?.exact ? [driver] : []), ...others, ...excluded, ...exclude.filter((p) => p.exact && p.words?.length === 0)]);
    const onRecords = include.some((p) => !byIndex.has(p)) || exclude.some((p) => !byIndex.has(p));
    const partitions = (p: TermPlan) => p.words!.flatMap((word) => sources(ctx, statusList, { ...f, word }, undefined, ownBy).sources);
    const candidates = new Merged(driverSources);
    const judged = others.length > 0 || excluded.length > 0 || onRecords;
    const feedRoom = feed ? new SearchRoom() : undefined;
    while (matched.length < want && !exhausted) {
      // As many candidates as the page still needs at the share that matched so far (a feed: as
      // many as its budget leaves room for).
      const needed = chunkSize(want - matched.length, consumed, matched.length, judged);
      const size = feedRoom ? feedRoom.fit(needed, matched.length, onRecords) : needed;
      if (!size) {
        cut = lastJudged ?? null;
        break;
      }
      const chunk: IndexItem[] = [];
      while (chunk.length < size) {
        const item = await candidates.next(size);
        if (!item) {
          exhausted = true;
          break;
        }
        if (!isRecent.has(Number(item.id))) chunk.push(item);
      }
      consumed += chunk.length;
      if (!chunk.length) break;
      lastJudged = chunk[chunk.length - 1];
      const [first, last] = [chunk[0]!.gsi2sk, chunk[chunk.length - 1]!.gsi2sk];
      const [having, notHaving] = await waitAll([
        waitAll(others.map((p) => idsBetween(partitions(p), first, last))),
        waitAll(excluded.map((p) => idsBetween(partitions(p), first, last))),
      ]);
      let kept = chunk.filter((i) => having.every((ids) => ids.has(Number(i.id))) && notHaving.every((ids) => !ids.has(Number(i.id))));
      let records = new Map<string, EventItem>();
      if (onRecords && kept.length) {
        records = await batchGet<EventItem>(kept.map((i) => keys.post(Number(i.id))));
        kept = kept.filter((i) => {
          const e = records.get(keyOf(keys.post(Number(i.id))));
          return e !== undefined && matchesSearch(e, terms);
        });
      }
      const hits = kept.map((i): Hit => [Number(i.id), i.gsi2sk, records.get(keyOf(keys.post(Number(i.id))))]);
      matched.push(...hits);
      feedRoom?.judged(
        chunk.length,
        hits.flatMap(([, , e]) => (e ? [e] : [])),
      );
    }
  } else exhausted = true;
  const fresh = [...(await freshRead).values()].filter((e) => inList(e, ctx, statusList, ownBy, f, w) && matchesSearch(e, terms));
  let all = [...matched, ...fresh.map((e): Hit => [e.id, sortKey(e), e])].sort(byOrder);
  // Past the last candidate judged, a recent event could come before one not judged yet.
  if (cut !== undefined) all = cut ? all.filter((h) => byOrder(h, [Number(cut.id), cut.gsi2sk]) <= 0) : [];
  const events = await recordsOf(all.slice(offset, want), feed);
  let total = all.length;
  if (!exhausted) {
    // The candidates did not run out: their count (from the buckets, where nothing else filters
    // them) times the share that matched, and at least one more than found.
    const counted = driverSources.every((s) => s.counted) && w ? await listTotal(driverSources, w, stats) : 0;
    total = estimatedTotal(counted, consumed, matched.length, fresh.length);
  }
  return { events, total };
}
