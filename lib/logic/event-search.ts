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
// event is found at once, and an old word or a trashed event stops matching at once. That read also
// gives the vocabulary's versions, so that a lookup this process made before serves again while
// nothing was added to its part of the vocabulary.
//
// As in WordPress, a caller who is not signed in never finds a password-protected event (not by
// its title either): the index keeps those events' words in partitions of their own, which only a
// signed-in caller's search reads, and the records judged here are checked likewise.
//
// Totals: one term that is a single word's partition (`jazz`, or `azz` when only `jazz` contains it)
// counts from the partition's count buckets, as a filtered list does. Otherwise the total is exact
// when the candidates ran out before the page was full, and else estimated from the driving term's
// counts and the share of its candidates that matched.
import { exactByWords, keyRun, MAX_WORD_LENGTH, vocabShard } from '#lib/domain/search-words.js';
import { matchesSearch, type SearchTerms } from '#lib/domain/search-terms.js';
import type { Lang } from '#lib/runtime/config.js';
import { batchGet, Found, keyOf, query, queryAll } from '#lib/store/reads.js';
import { batchGetWithTerms } from '#lib/store/counted-reads.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { caughtUp, recentState, vocabGroup, type RecentState } from '#lib/store/recent-writes.js';
import { ofKind, type AnyPost, type EventItem, type TermItem, type WordItem } from '#lib/store/items.js';

/** What a search's batch reads hold: records, terms and word entries. */
type SearchRead = AnyPost | TermItem | WordItem;
import { waitAll } from '#lib/runtime/settle.js';
import { matchesFilters, type Filtered } from './event-in-memory.js';
import { readFitting, SearchRoom } from './feed-reads.js';
import { asList } from './lists.js';
import { nonEmpty, pageAndTotal, pageKeys } from '#lib/store/list-pages.js';
import { filters, type Source } from '#lib/store/list-index.js';
import { keepFor, termsFor } from './term-cache.js';
import { listTotal } from './event-totals.js';
import { queryInputOf, sources, type EventSource } from './event-sources.js';
import { HIGH, type EventListRequest, type Window } from './event-window.js';
import type { ListPlan } from './event-plan.js';
import { vocabularyWords } from '#lib/store/partitions.js';

/** The most list partitions (words × statuses) one term's candidates are merged from; more: not selective. */
const MAX_TERM_PARTITIONS = 16;
/** Vocabulary entries read for a term: a piece found in more is not selective anyway. */
const VOCAB_READ = 200;
/** The most word partitions (words × statuses) of the other terms the index checks for each chunk. */
const CHECKED_PARTITIONS = 8;
/** The most candidates judged at once (one batch read of records, one range read per checked partition). */
const MAX_CHUNK = 100;
/** The most recent writes whose records join the page's own batch read (3 keys each, 100 in all). */
const FOLDED_RECENT = 25;
/** The keys one BatchGetItem takes. */
const BATCH_KEYS = 100;
/** Vocabulary lookups this process keeps. */
const MAX_LOOKED = 2000;

/** A term, and the words whose partitions hold its events (none known: the term is not selective). */
export interface TermPlan {
  term: string;
  words?: string[];
  /** Whether those partitions hold exactly the term's events (else the records tell). */
  exact: boolean;
}

type IndexItem = Record<string, unknown> & { id: number; gsi2sk: string };

/** Vocabulary lookups made, by language and piece, with their group's version then (none: too many words). */
const looked = new Map<string, { version: number; words: string[] | undefined }>();

/**
 * The words of a language's vocabulary that contain a piece (none: more than a search merges).
 * Given the vocabulary's versions, a lookup made at the same version serves again.
 */
async function wordsContaining(lang: Lang, piece: string, versions?: Record<string, number>): Promise<string[] | undefined> {
  const key = `${lang}|${piece}`;
  const version = versions?.[vocabGroup(vocabShard(piece))] ?? 0;
  const kept = versions ? looked.get(key) : undefined;
  if (kept?.version === version) return kept.words;
  // What is kept must hold every word added before the version read.
  const read = await vocabularyWords(lang, piece, VOCAB_READ, versions !== undefined);
  const words = read.complete ? [...new Set(read.words)] : undefined;
  if (versions) {
    looked.delete(key);
    looked.set(key, { version, words });
    if (looked.size > MAX_LOOKED) looked.delete(looked.keys().next().value!);
  }
  return words;
}

/** The words of a language's vocabulary that contain the term's key run (`perWord`: list partitions each word has). */
export async function planTerm(lang: Lang, term: string, perWord: number, versions?: Record<string, number>): Promise<TermPlan> {
  const exact = exactByWords(term);
  const run = keyRun(term);
  // One character is in nearly every text; it is not looked up.
  if (run === undefined || [...run].length < 2) return { term, exact };
  const piece = [...run].slice(0, MAX_WORD_LENGTH).join('');
  const words = await wordsContaining(lang, piece, versions);
  if (!words || words.length * perWord > MAX_TERM_PARTITIONS) return { term, exact };
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

/** Whether a search hides password-protected events: WordPress's does for anyone not signed in. */
const hidesLocked = (ctx: EventListRequest) => !ctx.principal;
const findable = (ctx: EventListRequest, e: EventItem) => !e.password || !hidesLocked(ctx);

/** What the list of a request tests of an event: its record, or a word entry of it (all of which are events). */
type Listed = Filtered & Pick<EventItem, 'id' | 'lang' | 'status' | 'author' | 'utcStart' | 'utcEnd' | 'hidden'> & { kind?: string };

/** Whether a record is in the list the request reads (language, status, author, window, filters). */
function inList(e: Listed, { ctx, statusList, ownBy, filters, window: w }: ListPlan): boolean {
  if ((e.kind ?? 'event') !== 'event' || e.lang !== ctx.lang || e.status === 'trash' || e.hidden || !statusList.includes(e.status)) return false;
  if (ownBy !== undefined && e.status !== 'publish' && e.author !== ownBy) return false;
  // An end that is not text is no end (as lib/logic/event-sources.ts lists it).
  if (w) {
    const at = sortKey(e);
    if (at < w.from || at > w.to) return false;
    if (typeof e.utcEnd !== 'string') return matchesFilters(e, filters);
    if (w.endAtMost !== undefined && !(e.utcEnd <= w.endAtMost)) return false;
    if (w.endBefore !== undefined && !(e.utcEnd < w.endBefore)) return false;
    if (w.endAfter !== undefined && !(e.utcEnd > w.endAfter)) return false;
  }
  return matchesFilters(e, filters);
}

/**
 * A window widened to the whole days of its bounds, without end conditions: what the count buckets
 * tell without reading the index, enough for an estimate.
 */
export function wholeDays(w: Window): Window {
  return { from: w.from && `${w.from.slice(0, 10)} 00:00:00`, to: w.to === HIGH ? HIGH : `${w.to.slice(0, 10)} 23:59:59#${HIGH}`, echo: w.echo };
}

const sortKey = (e: Listed) => listKeys.event(e.lang, e.status, e.utcStart, e.id).gsi2sk;
const byOrder = (a: [number, string, ...unknown[]], b: [number, string, ...unknown[]]) => a[1].localeCompare(b[1]) || a[0] - b[0];

/** The partitions of a list merged in sort-key order, each read a chunk at a time as the merge needs. */
class Merged {
  private readonly cursors: { s: Source; items: IndexItem[]; start?: Record<string, unknown>; done: boolean }[];
  private readonly seen = new Set<number>();

  /**
   * `spare`: the reads of a filtered partition ask for twice as many items, since the filter drops
   * some; a chunk that asks for more than it needs already has that room.
   */
  constructor(
    list: Source[],
    private readonly spare = true,
  ) {
    this.cursors = list.filter(nonEmpty).map((s) => ({ s, items: [], done: false }));
  }

  /** The next event of the merge (each once), or none; a partition that needs reading reads `limit` items. */
  async next(limit: number): Promise<IndexItem | undefined> {
    for (;;) {
      await waitAll(
        this.cursors
          .filter((c) => !c.items.length && !c.done)
          .map(async (c) => {
            const out = await query<IndexItem>({ ...queryInputOf(c.s), Limit: limit * (this.spare && filters(c.s) ? 2 : 1), ExclusiveStartKey: c.start });
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

/**
 * A match: its id, sort key, record when read, and index entry when it came from the index (read
 * only for the terms it names).
 */
type Hit = [number, string, EventItem | undefined, Record<string, unknown>?];

/** A page's events, and the terms read with them (kept ones included). */
interface SearchPage {
  events: EventItem[];
  total: number;
  terms: Map<number, TermItem>;
}

/**
 * The terms that the index entries of a page name, as a list page reads them: the kept ones, and
 * the ids of the others, which join the page's batch read (batchGetWithTerms).
 */
function termsNamed(ctx: EventListRequest, items: (Record<string, unknown> | undefined)[]) {
  const ids = new Set(items.flatMap((i) => (i ? [...asList(i.categories), ...asList(i.tags)] : [])));
  const kept = termsFor(ctx.shared, ids);
  const unread = [...ids].filter((id) => !kept.has(id));
  return {
    ids: unread,
    /** The terms, once the batch read `found`. */
    with(found: Found<SearchRead>): Map<number, TermItem> {
      const read = unread.flatMap((id) => found.get(keys.term(id)) ?? []);
      keepFor(ctx.shared, read);
      for (const t of read) kept.set(t.id, t);
      return kept;
    },
  };
}

/**
 * The records of a page's hits, in its order (those not read yet in one batch, with the terms
 * their index entries name). A feed keeps the longest prefix that one answer can hold
 * (lib/logic/feed-reads.ts).
 */
async function recordsOf(ctx: EventListRequest, page: Hit[], feed: ListPlan['feed']): Promise<{ events: EventItem[]; terms: Map<number, TermItem> }> {
  const list = page.map(([id]) => keys.post(id));
  const known = new Found<SearchRead>(page.flatMap(([id, , e]) => (e ? [[keyOf(keys.post(id)), e] as const] : [])));
  let found = known;
  let count = list.length;
  let terms = new Map<number, TermItem>();
  if (feed) ({ found, count } = await readFitting<SearchRead>(list, feed.maxBytes, known));
  else {
    const unread = list.filter((k) => !known.has(keyOf(k)));
    if (unread.length) {
      const named = termsNamed(
        ctx,
        page.flatMap(([, , e, item]) => (e ? [] : [item])),
      );
      found = new Found<SearchRead>([...known, ...(await batchGetWithTerms<SearchRead>(unread, named.ids))]);
      terms = named.with(found);
    }
  }
  const events = list.slice(0, count).flatMap((k) => ofKind(found.get(k), 'event') ?? []);
  return { events, terms };
}

/** The ids among a term's word partitions between two sort keys (inclusive). */
async function idsBetween(src: Source[], from: string, to: string): Promise<Set<number>> {
  const ranged = src.map((s) => ({ ...s, from: s.from && s.from > from ? s.from : from, to: s.to && s.to < to ? s.to : to })).filter(nonEmpty);
  const read = await waitAll(ranged.map((s) => queryAll<IndexItem>(queryInputOf(s))));
  return new Set(read.flat().map((i) => Number(i.id)));
}

/**
 * A page of one term whose events are one word's partitions, and its total from their counts. The
 * recent events' records and index entries join the batch read of the page's records: the page
 * is among the index's hits from `offset` less the recent events to `offset + perPage`.
 */
async function wordPage(plan: ListPlan, term: string, word: string, { ids: recent, written }: RecentState): Promise<SearchPage> {
  const { ctx, statusList, ownBy, filters, window: w, offset, perPage, stats, feed } = plan;
  const { sources: src, multi } = sources(ctx, statusList, { ...filters, word, withLocked: !!ctx.principal }, w, ownBy);
  // The index's entries of the recent events are skipped, so the page reads that many more keys.
  const want = offset + perPage + recent.length;
  const fold = !feed && recent.length <= FOLDED_RECENT;
  const recentKeys = [...recent.map(keys.post), ...recent.map((id) => keys.word(id, word))];
  const [read, counted, early] = await waitAll([
    multi ? pageAndTotal(src, 0, want, false) : pageKeys(src, 0, want, false).then((hits) => ({ hits, total: undefined })),
    multi ? Promise.resolve(undefined) : listTotal(src, w, stats, ctx.counter),
    fold ? Promise.resolve(new Found<SearchRead>()) : batchGet<SearchRead>(recentKeys, true),
  ]);
  const isRecent = new Set(recent);
  const hits = read.hits.filter((h) => !isRecent.has(h.id));
  // Folded: the recent writes are read with the page.
  const around = fold ? hits.slice(Math.max(0, offset - recent.length), offset + perPage) : [];
  const named = termsNamed(
    ctx,
    around.map((h) => h.item),
  );
  // Folded: one read of them all, and again, consistently, of a recent record it found behind its write.
  const found = fold ? await batchGetWithTerms<SearchRead>([...recentKeys, ...around.map((h) => keys.post(h.id))], named.ids) : early;
  if (fold) await caughtUp(written, found, (behind) => batchGet(behind, true));
  const foldedTerms = fold ? named.with(found) : new Map<number, TermItem>();
  const partitions = new Set(src.map((s) => s.partition));
  // What the counts hold of the recent events (their index entries), and what they hold now.
  const stale = recent.map((id) => found.get(keys.word(id, word))).filter((item) => item !== undefined && partitions.has(String(item.gsi2pk)) && inList(item, plan)).length;
  const fresh = recent
    .flatMap((id) => ofKind(found.get(keys.post(id)), 'event') ?? [])
    .filter((e) => inList(e, plan) && findable(ctx, e) && matchesSearch(e, { include: [term], exclude: [] }));
  const merged: Hit[] = [
    ...hits.map((h): Hit => [h.id, String(h.item.gsi2sk), ofKind(found.get(keys.post(h.id)), 'event'), h.item]),
    ...fresh.map((e): Hit => [e.id, sortKey(e), e]),
  ];
  merged.sort(byOrder);
  // A partition read to its end counts itself (the counts may be a moment behind its items while
  // the consumer writes them).
  const total = read.hits.length < want ? merged.length : Math.max(merged.length, (read.total ?? counted ?? 0) - stale + fresh.length);
  const { events, terms } = await recordsOf(ctx, merged.slice(offset, offset + perPage), feed);
  return { events: events.filter((e) => findable(ctx, e)), total, terms: new Map([...foldedTerms, ...terms]) };
}

/** What the index matched of a search, as far as the page needed. */
interface Matching {
  matched: Hit[];
  /** Candidates judged. */
  consumed: number;
  /** Whether the candidates ran out. */
  exhausted: boolean;
  /** Where a feed stopped judging (null: before any); undefined when it did not stop. */
  cut: IndexItem | null | undefined;
  /** The driving term's partitions (the whole list's without one). */
  driverSources: EventSource[];
  /** Terms read with the records that were judged. */
  terms: Map<number, TermItem>;
}

export async function listSearched(plan: ListPlan, terms: SearchTerms): Promise<SearchPage> {
  const { ctx, statusList, offset, perPage, window: w, stats } = plan;
  // The change counter the request reads for its tag (when it does) tells whether what was read of the recent writes still holds.
  const counter = await ctx.counter?.().catch(() => undefined);
  const state = await recentState(ctx.lang, counter);
  const { ids: recent, vocab } = state;
  const perWord = statusList.length * (ctx.principal ? 2 : 1);
  const [include, exclude] = await waitAll([
    waitAll(terms.include.map((t) => planTerm(ctx.lang, t, perWord, vocab))),
    waitAll(terms.exclude.map((t) => planTerm(ctx.lang, t, perWord, vocab))),
  ]);
  const [only] = include;
  if (include.length === 1 && !exclude.length && only!.exact && only!.words?.length === 1) return wordPage(plan, only!.term, only!.words[0]!, state);
  const freshRead = batchGet(recent.map(keys.post)).then(async (found) => {
    await caughtUp(state.written, found, (behind) => batchGet(behind, true));
    return found;
  });
  const want = offset + perPage;
  // A term no word contains matches no indexed event.
  const none: Matching = { matched: [], consumed: 0, exhausted: true, cut: undefined, driverSources: [], terms: new Map() };
  const {
    matched,
    consumed,
    exhausted,
    cut,
    driverSources,
    terms: judgedTerms,
  } = include.some((p) => p.words?.length === 0) ? none : await matchIndexed(plan, terms, { include, exclude }, new Set(recent));
  const fresh = [...(await freshRead).values()].flatMap((p) => ofKind(p, 'event') ?? []).filter((e) => inList(e, plan) && findable(ctx, e) && matchesSearch(e, terms));
  let all = [...matched, ...fresh.map((e): Hit => [e.id, sortKey(e), e])].sort(byOrder);
  // Past the last candidate judged, a recent event could come before one not judged yet.
  if (cut !== undefined) all = cut ? all.filter((h) => byOrder(h, [Number(cut.id), cut.gsi2sk]) <= 0) : [];
  // An event protected before its words were kept apart may still be in the public partitions.
  const { events, terms: named } = await recordsOf(ctx, all.slice(offset, want), plan.feed);
  let total = all.length;
  if (!exhausted) {
    // The candidates did not run out: their count (from the buckets, where nothing else filters
    // them) times the share that matched, and at least one more than found.
    const counted = driverSources.every((s) => s.counted) && w ? await listTotal(driverSources, wholeDays(w), stats, ctx.counter) : 0;
    total = estimatedTotal(counted, consumed, matched.length, fresh.length);
  }
  return { events: events.filter((e) => findable(ctx, e)), total, terms: new Map([...judgedTerms, ...named]) };
}

/**
 * The candidates of the driving term (the fewest words, then the longest piece), judged a chunk at
 * a time until the page is full or they run out (a feed: or its budget does). The other terms the
 * index decides, each its words' partitions; the rest is checked on the records. Each is a range
 * read per word and status for each chunk of candidates: past a few partitions in all, one batch
 * read of the records checks the rest at once.
 */
async function matchIndexed(plan: ListPlan, terms: SearchTerms, planned: { include: TermPlan[]; exclude: TermPlan[] }, isRecent: Set<number>): Promise<Matching> {
  const { ctx, statusList, ownBy, filters, window: w, offset, perPage, feed } = plan;
  const { include, exclude } = planned;
  const selective = include.filter((p) => p.words !== undefined).sort((a, b) => a.words!.length - b.words!.length || b.term.length - a.term.length);
  const driver = selective[0];
  const withLocked = !!ctx.principal;
  const partitions = (p: TermPlan, win?: Window) => p.words!.flatMap((word) => sources(ctx, statusList, { ...filters, word, withLocked }, win, ownBy).sources);
  const driverSources = driver ? partitions(driver, w) : sources(ctx, statusList, filters, w, ownBy).sources;
  let room = CHECKED_PARTITIONS;
  const fits = (p: TermPlan) => p.exact && p.words !== undefined && p.words.length > 0 && (room -= p.words.length * statusList.length) >= 0;
  const others = selective.slice(1).filter(fits);
  const excluded = exclude.filter(fits);
  const byIndex = new Set<TermPlan>([...(driver?.exact ? [driver] : []), ...others, ...excluded, ...exclude.filter((p) => p.exact && p.words?.length === 0)]);
  // The whole list's entries do not tell a password-protected event: its record does.
  const onRecords = include.some((p) => !byIndex.has(p)) || exclude.some((p) => !byIndex.has(p)) || (!driver && hidesLocked(ctx));
  const judged = others.length > 0 || excluded.length > 0 || onRecords;
  // A judged chunk asks for twice the matches it needs (`chunkSize`): its reads need no more room.
  const candidates = new Merged(driverSources, !judged);
  const feedRoom = feed ? new SearchRoom(feed.maxBytes) : undefined;
  const want = offset + perPage;
  const out: Matching = { matched: [], consumed: 0, exhausted: false, cut: undefined, driverSources, terms: new Map() };
  // The last candidate judged; where a feed stopped judging (null: before any), its events end.
  let lastJudged: IndexItem | undefined;
  // A chunk of a page or two whose other terms the index would check is judged on its records
  // instead: the matches' records are the page's own read, so the index's range reads would only
  // add requests (a search of two words then costs a list's). Larger chunks, of rarer matches,
  // are pruned by the index first.
  const ownRecords = !onRecords && !feed && (others.length > 0 || excluded.length > 0);
  while (out.matched.length < want && !out.exhausted) {
    // As many candidates as the page still needs at the share that matched so far (a feed: as
    // many as its budget leaves room for). A first chunk judged on its own records asks for just
    // the matches it needs: words searched together mostly occur together, and a record read in
    // vain costs as much as one of the page's.
    const needed = chunkSize(want - out.matched.length, out.consumed, out.matched.length, judged && !(ownRecords && !out.consumed));
    const size = feedRoom ? feedRoom.fit(needed, out.matched.length, onRecords) : needed;
    if (!size) {
      out.cut = lastJudged ?? null;
      break;
    }
    const chunk: IndexItem[] = [];
    while (chunk.length < size) {
      const item = await candidates.next(size);
      if (!item) {
        out.exhausted = true;
        break;
      }
      if (!isRecent.has(Number(item.id))) chunk.push(item);
    }
    out.consumed += chunk.length;
    if (!chunk.length) break;
    lastJudged = chunk[chunk.length - 1];
    const onOwnRecords = ownRecords && chunk.length <= 2 * perPage;
    const [first, last] = [chunk[0]!.gsi2sk, chunk[chunk.length - 1]!.gsi2sk];
    const [having, notHaving] = onOwnRecords
      ? [[], []]
      : await waitAll([waitAll(others.map((p) => idsBetween(partitions(p), first, last))), waitAll(excluded.map((p) => idsBetween(partitions(p), first, last)))]);
    const kept = chunk.filter((i) => having.every((ids) => ids.has(Number(i.id))) && notHaving.every((ids) => !ids.has(Number(i.id))));
    const hits = onRecords || onOwnRecords ? await judgedOnRecords(ctx, kept, terms, out.terms) : kept.map((i): Hit => [Number(i.id), i.gsi2sk, undefined, i]);
    out.matched.push(...hits);
    feedRoom?.judged(
      chunk.length,
      hits.flatMap(([, , e]) => (e ? [e] : [])),
    );
  }
  return out;
}

/**
 * The candidates whose records match the search, read in one batch with the terms their index
 * entries name (into `read`, for the page's answer) when those fit in the same request.
 */
async function judgedOnRecords(ctx: EventListRequest, kept: IndexItem[], terms: SearchTerms, read: Map<number, TermItem>): Promise<Hit[]> {
  if (!kept.length) return [];
  const named = termsNamed(ctx, kept);
  const withTerms = kept.length + named.ids.length <= BATCH_KEYS;
  const records = await batchGetWithTerms<SearchRead>(
    kept.map((i) => keys.post(Number(i.id))),
    withTerms ? named.ids : [],
  );
  if (withTerms) for (const [id, t] of named.with(records)) read.set(id, t);
  return kept.flatMap((i): Hit[] => {
    const e = ofKind(records.get(keys.post(Number(i.id))), 'event');
    return e !== undefined && findable(ctx, e) && matchesSearch(e, terms) ? [[Number(i.id), i.gsi2sk, e, i]] : [];
  });
}
