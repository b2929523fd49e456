// Event create and update (docs/tec-behaviour.md §6.1, with the deviations of docs/tec-behaviour.md §1: partial updates, an end
// before the start is a 400, links to unknown ids are a 400).
import { config, type Lang } from '#lib/runtime/config.js';
import { parseCostInput, withCurrency } from '#lib/domain/cost.js';
import { endOfDay, parseDate, startOfDay, utcToWall, wallToUtc } from '#lib/domain/time/dates.js';
import { ApiError, invalidParam, invalidParams, tec } from '#lib/contract/errors.js';
import { HTML_FILTERS, renderTermName } from '#lib/contract/html-filters.js';
import { collate } from './dedupe.js';
import { recordReply, type Reply } from '#lib/contract/reply.js';
import { listItems } from '#lib/contract/params.js';
import { canRead, checkAuthor, isEditor, requireRole, requireWrite, scaleStatus } from '#lib/auth/permissions.js';
import { validateArgs } from '#lib/contract/validate.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { Params } from '#lib/contract/params.js';
import type { RequestContext } from '#lib/contract/request.js';

type EventCreate = RequestContext<ArgsOf<'events.create'>>;
type EventUpdate = RequestContext<ArgsOf<'events.update'>>;
/** An event payload's fields as validated (all optional, as in an update), with the status the caller may set. */
type EventFields = Omit<Params<ArgsOf<'events.update'>>, 'status' | 'scope'> & { status?: string };
/** A write whose links are resolved: a create's or an update's. */
type LinkWrite = Omit<EventUpdate, 'params'> & { params: EventFields };
import { presentEvent } from '#lib/present/present.js';
import { eventArgs } from '#lib/contract/args/event.js';
import { organizerWriteArgs, venueWriteArgs } from '#lib/contract/args/place.js';
import { slugify } from '#lib/domain/slug.js';
import { batchGet, type Found, getItem, type ItemKey } from '#lib/store/reads.js';
import { updateEventFields, type RecordOnlyWrite } from '#lib/store/event-fields.js';
import { foundInRace, SlugTaken } from '#lib/store/transactions.js';
import { splitOf, splitsSettled } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import type { ImportedRecord } from '#lib/contract/imported.js';
import { freeSlug } from '#lib/store/slugs.js';
import { keys, type Taxonomy } from '#lib/store/keys.js';
import { noteRecentWrite } from '#lib/store/recent-writes.js';
import { ofKind, type AnyPost, type EventItem, type IdPointer, type SeriesEdit, type TermItem } from '#lib/store/items.js';
import { checked, type Checked } from '#lib/store/precondition.js';
import { cardsFor } from './cards.js';
import { authorOf, keptText, loadLinked, modifiedNow, ownImported, publicationDates } from './common.js';
import { requireFewerThanItems } from './event-room.js';
import { newPlace, type PlaceFields } from './places.js';
import { findPost } from './post-reads.js';
import { newTermItem } from './term-items.js';
import { commit, insertEvent, type Resolved } from './event-commit.js';
import { keptSeries, startSeries } from './series-rules.js';
import { editSeries } from './series-scope.js';
import { planSplit, splitSeries, type SplitPlan } from './series-split.js';
import { changeSeriesRules, planRules } from './series-rules-edit.js';
import { requireSeriesWrite } from './posts.js';

/**
 * Splits a link parameter into its items; undefined keeps the current links, [] clears them. How
 * many links a write holds is decided by its transaction (event-room.ts).
 */
function items(value: unknown): unknown[] | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '' || value === 0 || value === '0') return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? (listItems(value) ?? []) : [value];
}

const asId = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0
    ? v
    : typeof v === 'string' && /^\d+$/.test(v.trim()) && Number(v) > 0
      ? Number(v)
      : typeof v === 'object' && v !== null && 'id' in v
        ? asId((v as { id: unknown }).id)
        : undefined;

type LinkLists = { venue?: unknown[]; organizer?: unknown[]; categories?: unknown[]; tags?: unknown[] };
const TAXONOMY: Record<'categories' | 'tags', Taxonomy> = { categories: 'category', tags: 'tag' };

/** A payload's links being resolved: what the batch read found, and what is resolved so far. */
/** What resolving a payload's links reads: records, terms, and the guards of term slugs and names. */
type LinkRead = AnyPost | TermItem | IdPointer;

interface Resolving {
  ctx: LinkWrite;
  lists: LinkLists;
  found: Found<LinkRead>;
  out: Resolved;
  author: number;
  attempt: number;
}

/**
 * Resolves the links of an event payload with one batch read: ids must name records of the
 * right kind; inline objects create venues and organizers; term slugs and names resolve in the
 * request language, and unknown names create terms.
 */
async function resolveLinks(ctx: LinkWrite, author: number, attempt: number): Promise<Resolved> {
  const p = ctx.params;
  const lists: LinkLists = { venue: items(p.venue), organizer: items(p.organizer), categories: items(p.categories), tags: items(p.tags) };
  requireFewerThanItems(lists);
  const lookups = linkLookups(lists, ctx.lang);
  // Consistent: a card taken from this read must carry the record's current `rev`. A record being
  // split is read once it is (lib/store/record-shards.ts).
  await splitsSettled(lookups);
  const found = await batchGet(lookups, true);
  const out: Resolved = {
    places: new Map(),
    writes: [],
    created: new Set(),
    edited: [],
    newTerms: [],
    split: splitOf(found.values()),
    ...(ctx.imported?.unobserved ? { unobserved: true } : {}),
  };
  const r: Resolving = { ctx, lists, found, out, author, attempt };
  await resolvePlaces(r, 'venue', venueWriteArgs);
  await resolvePlaces(r, 'organizer', organizerWriteArgs);
  await resolveTerms(r, 'categories');
  await resolveTerms(r, 'tags');
  return out;
}

/** The keys one batch read resolves every link by: records by id, terms by slug and by name. */
function linkLookups(lists: LinkLists, lang: Lang): ItemKey<LinkRead>[] {
  const lookups: ItemKey<LinkRead>[] = [];
  for (const field of ['venue', 'organizer'] as const)
    for (const v of lists[field] ?? []) {
      const id = asId(v);
      if (id !== undefined) lookups.push(keys.post(id));
    }
  for (const field of ['categories', 'tags'] as const)
    for (const v of lists[field] ?? []) {
      const id = asId(v);
      if (id !== undefined) lookups.push(keys.term(id));
      else {
        // A new term's name is saved as WordPress saves term names (the same as POST /categories).
        const s = renderTermName(String(v));
        if (s === '') throw invalidParam(field, `${field} contains a name that is empty once sanitized.`);
        lookups.push(keys.slugGuard(TAXONOMY[field], lang, s.toLowerCase()), keys.termName(TAXONOMY[field], lang, 0, s));
      }
    }
  return lookups;
}

/** The venues or organizers a payload names: existing ones by id, new ones inline. */
async function resolvePlaces(r: Resolving, kind: 'venue' | 'organizer', args: typeof venueWriteArgs | typeof organizerWriteArgs): Promise<void> {
  const { ctx, found, out } = r;
  const list = r.lists[kind];
  if (!list) return;
  const ids: number[] = [];
  for (const v of list) {
    const id = asId(v);
    if (id !== undefined) {
      const post = ofKind(found.get(keys.post(id)), kind);
      // A record the caller may not read is answered like a missing one: nothing leaks.
      if (!post || post.status === 'trash' || !(await canRead(ctx, post))) {
        if (typeof v === 'object') throw tec.invalidLinkedPost();
        throw invalidParam(kind, `${kind} ${id} is not an existing ${kind}.`);
      }
      out.places.set(id, post);
      ids.push(id);
    } else ids.push(await inlinePlace(r, kind, args, v));
  }
  out[kind === 'venue' ? 'venues' : 'organizers'] = [...new Set(ids)];
}

/** An inline venue or organizer: one of the same name in this request, a matching record, or a new one. */
async function inlinePlace(r: Resolving, kind: 'venue' | 'organizer', args: typeof venueWriteArgs | typeof organizerWriteArgs, v: unknown): Promise<number> {
  const { ctx, out } = r;
  if (typeof v !== 'object' || v === null) throw invalidParam(kind, `${kind} must be ids or objects.`);
  // As TEC's validation of the argument: an inline record's fields are scalars.
  if (Object.values(v).some((f) => typeof f === 'object' && f !== null)) throw invalidParam(kind);
  let params: PlaceFields;
  try {
    params = validateArgs(args, v as Record<string, unknown>, { unfilteredHtml: isEditor(ctx.principal), filters: HTML_FILTERS });
  } catch (err) {
    throw tec.couldNotCreate(kind, err instanceof ApiError ? err.message : String(err));
  }
  // Two inline records of one name in one request are one (TEC's de-duplication).
  const title = collate(String(params[kind]));
  const description = params.description === undefined ? undefined : collate(String(params.description));
  const same = [...out.places.values()].find(
    (p) => p.kind === kind && out.created.has(p.pk) && collate(p.title) === title && (description === undefined || collate(p.description ?? '') === description),
  );
  if (same) return same.id;
  const status = scaleStatus(ctx.principal!, 'publish', undefined);
  const { item, writes, reused, edited } = await newPlace(kind, { ...params, status }, ctx, r.author, r.attempt);
  out.writes.push(...writes);
  if (edited) out.edited.push(item);
  // A reused record is linked like any existing one (its card checked against its revision),
  // through its shards when it is split (one it is rewritten with carries its own count).
  if (!reused) out.created.add(item.pk);
  else if (!edited) for (const [pk, how] of splitOf([item])) out.split.set(pk, how);
  out.places.set(item.id, item);
  return item.id;
}

/** The categories or tags a payload names: by id, by slug or name, or new ones. */
async function resolveTerms({ ctx, lists, found, out, attempt }: Resolving, field: 'categories' | 'tags'): Promise<void> {
  const list = lists[field];
  if (!list) return;
  const taxonomy = TAXONOMY[field];
  const ids: number[] = [];
  for (const v of list) {
    const id = asId(v);
    if (id !== undefined) {
      const term = found.get(keys.term(id));
      if (!term || term.taxonomy !== taxonomy) throw invalidParam(field, `${field} ${id} is not an existing ${taxonomy}.`);
      (out.terms ??= new Map()).set(id, term);
      ids.push(id);
      continue;
    }
    const s = renderTermName(String(v));
    const bySlug = found.get(keys.slugGuard(taxonomy, ctx.lang, s.toLowerCase()));
    const byName = found.get(keys.termName(taxonomy, ctx.lang, 0, s));
    const existing = bySlug?.id ?? byName?.id ?? out.newTerms.find((t) => t.taxonomy === taxonomy && t.name.toLowerCase() === s.toLowerCase())?.id;
    if (existing !== undefined) {
      ids.push(existing);
      continue;
    }
    const term = await newTermItem({ taxonomy, lang: ctx.lang, name: s, description: '', parent: 0, attempt });
    out.newTerms.push(term);
    out.created.add(term.pk);
    ids.push(term.id);
  }
  out[field] = [...new Set(ids)];
}

/** The event a payload describes, on top of `old` for updates. */
function eventFrom(
  p: EventFields,
  base: { id: number; lang: Lang; slug: string; author: number; now: Date; old?: EventItem; imported?: ImportedRecord },
  links: Resolved,
): EventItem {
  const old = base.old;
  const timezone = p.timezone ?? old?.timezone ?? '';
  const zone = timezone || config().siteTimezone;
  let start = p.start_date !== undefined ? parseDate(p.start_date, zone, base.now)! : old!.start;
  let end = p.end_date !== undefined ? parseDate(p.end_date, zone, base.now)! : old!.end;
  const allDay = p.all_day ?? old?.allDay ?? false;
  if (allDay) {
    start = startOfDay(start);
    end = endOfDay(end);
  } else {
    // A wall time the zone skips (the hour clocks go forward) is saved as the time it resolves to,
    // as TEC saves it: 03:30 in Vilnius on 2027-03-28 is 04:30.
    if (p.start_date !== undefined) start = utcToWall(wallToUtc(start, zone), zone);
    if (p.end_date !== undefined) end = utcToWall(wallToUtc(end, zone), zone);
  }
  if (end < start) {
    throw invalidParams({ end_date: `end_date (${end}) must not be before start_date (${start}).` });
  }
  const hidden = p.hide_from_listings ?? old?.hidden ?? false;
  // The import's write of the record sends the site's wall times: their UTC times are the site's
  // too, whatever this API would compute (an all-day event in a manual offset, an hour clocks pass twice).
  const imported = ownImported(base.imported, 'post', base.id);
  const event: EventItem = {
    ...keys.post(base.id),
    id: base.id,
    kind: 'event',
    lang: base.lang,
    status: p.status ?? old?.status ?? 'publish',
    slug: base.slug,
    author: base.author,
    ...publicationDates(p, base.now, old),
    ...modifiedNow(base.now, imported),
    title: p.title ?? old!.title,
    description: p.description ?? keptText(imported, 'description', old?.description),
    excerpt: p.excerpt ?? keptText(imported, 'excerpt', old?.excerpt),
    image: p.image ?? keptText(imported, 'image', old?.image),
    website: p.website ?? old?.website ?? null,
    version: (old?.version ?? 0) + 1,
    start,
    end,
    // An imported event keeps the UTC times its site stored (lib/contract/imported.ts).
    utcStart: imported?.utc?.start ?? wallToUtc(start, zone),
    utcEnd: imported?.utc?.end ?? wallToUtc(end, zone),
    timezone,
    // TEC computes it on every save of its own; an imported event shows the site's.
    ...(imported?.timezoneAbbr !== undefined ? { timezoneAbbr: imported.timezoneAbbr } : {}),
    allDay,
    cost: withCurrency(p.cost !== undefined ? parseCostInput(p.cost) : old?.cost, imported?.currency),
    showMap: p.show_map ?? old?.showMap ?? false,
    showMapLink: p.show_map_link ?? old?.showMapLink ?? false,
    sticky: p.sticky ?? old?.sticky ?? false,
    featured: p.featured ?? old?.featured ?? false,
    venues: links.venues ?? old?.venues ?? [],
    organizers: links.organizers ?? old?.organizers ?? [],
    categories: links.categories ?? old?.categories ?? [],
    tags: links.tags ?? old?.tags ?? [],
    parent: old?.parent ?? 0,
    ...keptSeries(old),
  };
  event.cards = cardsFor(event, links.places, old?.cards);
  if (hidden) event.hidden = true;
  if (!event.cost) delete event.cost;
  const password = p.password ?? old?.password;
  if (password) event.password = password;
  return event;
}

async function respond(status: number, e: EventItem, known?: ReadonlyMap<number, TermItem>): Promise<Reply> {
  return recordReply(status, presentEvent(e, await loadLinked([e], {}, known), false), e);
}

/**
 * The terms a new event links, as its write left them: each read (consistently) before the write,
 * with the event counted, and each term the write created. A split term (its count in shards) is
 * left to loadLinked to read, and so is one named by slug or name.
 */
function createdLinks(e: EventItem, links: Resolved): Map<number, TermItem> {
  const counted = e.status === 'publish' ? 1 : 0;
  const out = new Map<number, TermItem>(links.newTerms.map((t) => [t.id, { ...t, count: counted }]));
  for (const [id, t] of links.terms ?? []) if (!t.shards) out.set(id, { ...t, count: (t.count ?? 0) + counted });
  return out;
}

export async function createEvent(ctx: EventCreate): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  await checkAuthor(ctx);
  const author = await authorOf(ctx);
  const params = { ...ctx.params, status: scaleStatus(ctx.principal, ctx.params.status, undefined) };
  // A slug with nothing usable in it falls back to the title's, as wp_insert_post() does.
  const wanted = slugify(ctx.params.slug ?? '') || slugify(ctx.params.title);
  let built: { event: EventItem; links: Resolved } | undefined;
  const event = await insertEvent(
    ctx,
    wanted,
    (attempt) => resolveLinks(ctx, author, attempt),
    (id, slug, links) => {
      const next = eventFrom(params, { id, lang: ctx.lang, slug, author, now: ctx.now, imported: ctx.imported }, links);
      // A recurring event is its series' first occurrence; the stream consumer writes the others.
      built = { event: ctx.params.recurrence === undefined ? next : startSeries(next, ctx.params.recurrence, ctx.now), links };
      return built.event;
    },
  );
  // A retried create that had landed answers its stored event, unbuilt: its terms are read.
  return respond(201, event, built?.event === event ? createdLinks(event, built.links) : undefined);
}

const NO_LINKS: Resolved = { places: new Map(), writes: [], created: new Set(), edited: [], newTerms: [], split: new Map() };

/**
 * Event parameters stored in the record alone, by attribute: no index item, count bucket, guard,
 * link or card depends on them, so an update that sends only these can change them in the
 * record with one conditional UpdateItem (see `updateFields`).
 */
const RECORD_ONLY = {
  title: 'title',
  description: 'description',
  excerpt: 'excerpt',
  image: 'image',
  website: 'website',
  cost: 'cost',
  show_map: 'showMap',
  show_map_link: 'showMapLink',
  sticky: 'sticky',
  password: 'password',
} as const satisfies Record<string, keyof EventItem>;

/**
 * An update that sends only record-only fields: one UpdateItem that sets exactly those fields
 * (and `modified`, and bumps `version`, but not `indexVersion`). Many writers of one event then
 * all succeed, the last one winning per field, instead of racing on the record's version; there
 * is no derived item to keep in step, and a concurrent update of indexed fields does not retry
 * because of it (it writes only the fields it changes). Undefined when the event is
 * gone or its status changed since the permission check (the general path then decides). With
 * `check`, the update also requires the version If-Match was checked at.
 */
async function updateFields(ctx: EventUpdate, found: EventItem, check: Checked | undefined): Promise<EventItem | undefined> {
  // The values as the general path stores them (eventFrom), so both paths store the same.
  const computed = eventFrom(
    { ...ctx.params, status: found.status },
    { id: found.id, lang: found.lang, slug: found.slug, author: found.author, now: ctx.now, old: found, imported: ctx.imported },
    NO_LINKS,
  );
  const fields: RecordOnlyWrite = { set: {}, remove: [], modified: modifiedNow(ctx.now, ownImported(ctx.imported, 'post', found.id)) };
  for (const param of Object.keys(RECORD_ONLY) as (keyof typeof RECORD_ONLY)[]) {
    const attribute = RECORD_ONLY[param];
    if (ctx.params[param] === undefined) continue;
    if (computed[attribute] === undefined) fields.remove.push(attribute);
    else Object.assign(fields.set, { [attribute]: computed[attribute] });
  }
  return updateEventFields(found.id, found.status, fields, check);
}

/**
 * Retries of an update that lost a race: a random wait below a ceiling that doubles with each
 * loss, up to a second, so that many writers of one event spread out instead of all retrying at
 * once (and each retry is one request, see below).
 */
const PATCH_RETRY = { baseMs: 25, capMs: 1_000 };

/**
 * The attributes of an event that an edit by scope all writes to every event of its series, by
 * parameter: all but its dates, zone, slug and rules (lib/logic/series-scope.ts).
 */
const SERIES_WIDE = {
  ...RECORD_ONLY,
  status: 'status',
  author: 'author',
  featured: 'featured',
  hide_from_listings: 'hidden',
  venue: 'venues',
  organizer: 'organizers',
  categories: 'categories',
  tags: 'tags',
} as const satisfies Record<string, keyof EventItem>;

/** The edit by scope all of the fields `params` sends, as `written` (the event they were sent to) took them. */
function seriesEdit(params: EventUpdate['params'], written: EventItem): SeriesEdit {
  const edit: SeriesEdit = { set: {}, remove: [], from: written.id, at: written.modified_utc };
  for (const param of Object.keys(SERIES_WIDE) as (keyof typeof SERIES_WIDE)[]) {
    if (params[param] === undefined) continue;
    const attribute = SERIES_WIDE[param];
    if (written[attribute] === undefined) edit.remove.push(attribute);
    else Object.assign(edit.set, { [attribute]: written[attribute] });
  }
  return edit;
}

/**
 * An event that an update gives rules: a single event becomes the first of a series (the stream
 * consumer writes the others). An event of a series takes new rules only with its whole series.
 */
function recurring(e: EventItem, lines: string[] | string, now: Date): EventItem {
  if (e.seriesId !== undefined) {
    throw invalidParam('recurrence', `recurrence: event ${e.id} is part of the series of event ${e.seriesId}; send its new rules with scope all.`);
  }
  return startSeries(e, lines, now);
}

export async function updateEvent(ctx: EventUpdate): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  const found = await findPost(ctx, 'event');
  const check = checked(ctx.ifMatch, found);
  await requireWrite(ctx, found);
  await checkAuthor(ctx);
  // An event of no series is its own whole series: `all` and `following` write it alone; from a
  // series' first event on, `following` is `all`.
  const following = ctx.params.scope === 'following' && found.seriesId !== undefined && found.seriesId !== found.id;
  const seriesId = ctx.params.scope === 'all' || (ctx.params.scope === 'following' && !following) ? found.seriesId : undefined;
  if (following) await requireSeriesWrite(ctx, found.seriesId!);
  if (following) {
    // The series splits in two at this event (lib/logic/series-split.ts).
    const plan = await planSplit(found, ctx.params, ctx.now);
    const { recurrence: _sent, ...shared } = ctx.params;
    const event = await writeEvent({ ...ctx, params: shared }, found, check, plan.own);
    await splitSeries(plan, event, seriesEdit(ctx.params, event), ctx.now);
    // New rules are the new series' once its events have moved: the answer shows whether they are yet.
    return respond(200, plan.rules ? (ofKind(await getItem(keys.post(event.id)), 'event') ?? event) : event);
  }
  if (seriesId !== undefined) await requireSeriesWrite(ctx, seriesId);
  // New rules for the whole series (lib/logic/series-rules-edit.ts): checked before anything is written.
  const lines = seriesId !== undefined ? ctx.params.recurrence : undefined;
  const rules = lines === undefined ? undefined : await planRules(found, lines, ctx.params, ctx.now);
  const { recurrence: _rules, ...params } = ctx.params;
  const event = await writeEvent(lines === undefined ? ctx : { ...ctx, params }, found, check);
  const edit = seriesId === undefined ? undefined : seriesEdit(ctx.params, event);
  if (edit && (Object.keys(edit.set).length || edit.remove.length)) await editSeries(seriesId!, edit);
  if (!rules) return respond(200, event);
  await changeSeriesRules(rules, event.id, ctx.now);
  return respond(200, ofKind(await getItem(keys.post(event.id)), 'event') ?? event);
}

/** The update of `found` by the fields `ctx` sends (and, for a split of its series, its new series' fields). */
async function writeEvent(ctx: EventUpdate, found: EventItem, check: Checked | undefined, series?: SplitPlan['own']): Promise<EventItem> {
  // On the by-slug route the path names the event; a `slug` in the body renames it.
  let wantedSlug = ctx.params.slug;
  const rename = ctx.path.slug !== undefined ? eventArgs.updateBySlug.slug.inBody : undefined;
  if (rename && ctx.input.slug !== undefined) {
    const r = rename.schema.safeParse(ctx.input.slug);
    if (!r.success) throw invalidParam('slug', `slug ${r.error.issues[0]?.message ?? 'is invalid.'}`);
    wantedSlug = r.data;
  }
  const statusOf = (old: EventItem) => (old.status === 'trash' && ctx.params.status === undefined ? 'trash' : scaleStatus(ctx.principal!, ctx.params.status, old.status));
  const recordOnly =
    !series && wantedSlug === undefined && statusOf(found) === found.status && Object.keys(ctx.params).every((k) => k in RECORD_ONLY || k === 'ml_language' || k === 'scope');
  if (recordOnly) {
    // A searched field changes: searches read the record until the consumer has indexed it. Noted
    // before the update, so that no answer (an error included) comes after an update searches miss;
    // a note whose update did not land only makes searches read that record until it expires.
    if (['title', 'description', 'excerpt'].some((k) => k in ctx.params)) await noteRecentWrite({ ...found, version: found.version + 1 });
    const updated = await updateFields(ctx, found, check);
    if (updated) return updated;
  }
  const author = await authorOf(ctx, found.author);
  let slugRaces = 0;
  // Each attempt re-reads the event and applies only the sent fields on top of it, and its
  // transaction writes only the fields that change (event-writes.ts): a lost race costs a re-read,
  // never another writer's changes (the last writer wins per field). The links are resolved
  // before the read, so that the time between the read and the commit is as short as it can be.
  let links: Resolved | undefined;
  return withRetry(async (attempt, previous) => {
    if (previous instanceof SlugTaken) slugRaces++;
    // After a race lost on the event's own record, the links still hold (a link that changed
    // fails its own condition) and the failed condition returned the record as it is now: the
    // retry is one request, which keeps the time between its read and its commit short.
    const raced = foundInRace<EventItem>(previous, keys.post(found.id));
    if (!raced || !links) links = await resolveLinks(ctx, author, attempt);
    const old = raced ?? ofKind(await getItem(keys.post(found.id)), 'event');
    if (!old) throw tec.eventNotFound(found.id);
    let slug = old.slug;
    if (wantedSlug !== undefined && old.status !== 'trash') {
      slug = await freeSlug('event', old.lang, slugify(wantedSlug) || slugify(ctx.params.title ?? old.title) || String(old.id), old.id, slugRaces + 1);
    } else if (old.status === 'trash' && statusOf(old) !== 'trash') {
      // Leaving the trash takes the original slug back (or the next free one), as venues do.
      slug = await freeSlug('event', old.lang, slugify(wantedSlug ?? old.slug.replace(/__trashed$/, '')) || String(old.id), old.id, slugRaces + 1);
    }
    const edited = eventFrom({ ...ctx.params, status: statusOf(old) }, { id: old.id, lang: old.lang, slug, author, now: ctx.now, old, imported: ctx.imported }, links);
    const next = series ? { ...edited, ...series } : ctx.params.recurrence === undefined ? edited : recurring(edited, ctx.params.recurrence, ctx.now);
    await commit(old, next, links, check, attempt);
    return next;
  }, PATCH_RETRY);
}
