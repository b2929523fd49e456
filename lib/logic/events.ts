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
type EventFields = Omit<Params<ArgsOf<'events.update'>>, 'status'> & { status?: string };
import { presentEvent } from '#lib/present/present.js';
import { eventArgs } from '#lib/contract/args/event.js';
import { organizerWriteArgs, venueWriteArgs } from '#lib/contract/args/place.js';
import { slugify } from '#lib/domain/slug.js';
import { batchGet, type Found, getItem, keyOf, type ItemKey } from '#lib/store/reads.js';
import { updateEventFields, type RecordOnlyWrite } from '#lib/store/event-fields.js';
import { foundInRace, SlugTaken, transact, TransactionConflicted, type TransactItem } from '#lib/store/transactions.js';
import { splitAll, splitOf, splitsSettled, type Split } from '#lib/store/record-shards.js';
import { withRetry } from '#lib/store/retry.js';
import type { CreateId } from '#lib/store/create-ids.js';
import type { ImportedRecord } from '#lib/contract/imported.js';
import { freeSlug, idAndSlug } from '#lib/store/slugs.js';
import { keys, type Taxonomy } from '#lib/store/keys.js';
import { noteRecentWrite } from '#lib/store/recent-writes.js';
import { ofKind, type AnyPost, type EventItem, type IdPointer, type OrganizerItem, type TermItem, type VenueItem } from '#lib/store/items.js';
import { checked, writeChecked, type Checked } from '#lib/store/precondition.js';
import { addTermBytes, durationBound, itemBytes } from '#lib/store/stats.js';
import { eventSeconds } from '#lib/store/durations.js';
import { cardsFor, refreshCards, REQUEST_FAN_OUT } from './cards.js';
import { logger } from '#lib/observe/log.js';
import { authorOf, keptText, loadLinked, modifiedNow, newId, ownImported, publicationDates } from './common.js';
import { bucketSpread, eventTransaction, MAX_BUCKET_SHARDS, type TransactionLinks } from './event-writes.js';
import { requireFewerThanItems, requireRoom } from './event-room.js';
import { newPlace, type PlaceFields } from './places.js';
import { findPost } from './post-reads.js';
import { newTermItem, termWrites } from './term-items.js';
import { waitAll } from '#lib/runtime/settle.js';

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

interface Resolved {
  venues?: number[];
  organizers?: number[];
  categories?: number[];
  tags?: number[];
  /** Venues and organizers read or created by this write, for the event's cards. */
  places: Map<number, VenueItem | OrganizerItem>;
  /** Records created by this write (inline venues, organizers, new terms). */
  writes: TransactItem[];
  created: Set<string>;
  /** Existing venues and organizers this write saves fields onto (their records are in `writes`). */
  edited: (VenueItem | OrganizerItem)[];
  newTerms: TermItem[];
  /** Linked records read that are split (lib/store/record-shards.ts): partition key → how. */
  split: Map<string, Split>;
}

type LinkLists = { venue?: unknown[]; organizer?: unknown[]; categories?: unknown[]; tags?: unknown[] };
const TAXONOMY: Record<'categories' | 'tags', Taxonomy> = { categories: 'category', tags: 'tag' };

/** A payload's links being resolved: what the batch read found, and what is resolved so far. */
/** What resolving a payload's links reads: records, terms, and the guards of term slugs and names. */
type LinkRead = AnyPost | TermItem | IdPointer;

interface Resolving {
  ctx: EventUpdate;
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
async function resolveLinks(ctx: EventUpdate, author: number, attempt: number): Promise<Resolved> {
  const p = ctx.params;
  const lists: LinkLists = { venue: items(p.venue), organizer: items(p.organizer), categories: items(p.categories), tags: items(p.tags) };
  requireFewerThanItems(lists);
  const lookups = linkLookups(lists, ctx.lang);
  // Consistent: a card taken from this read must carry the record's current `rev`. A record being
  // split is read once it is (lib/store/record-shards.ts).
  await splitsSettled(lookups);
  const found = await batchGet(lookups, true);
  const out: Resolved = { places: new Map(), writes: [], created: new Set(), edited: [], newTerms: [], split: splitOf(found.values()) };
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
  };
  event.cards = cardsFor(event, links.places, old?.cards);
  if (hidden) event.hidden = true;
  if (!event.cost) delete event.cost;
  const password = p.password ?? old?.password;
  if (password) event.password = password;
  return event;
}

/**
 * Writes the event and everything created with it in one transaction; an update's carries the
 * version `check` names (If-Match), on every attempt. Retries spread their counts (bucketSpread).
 */
async function commit(old: EventItem | undefined, next: EventItem, links: Resolved, check: Checked | undefined, attempt: number): Promise<void> {
  const bound = await durationBound(next.lang, eventSeconds(next));
  // A split record is one that writes meet on: spread as wide as it is split, at once.
  const spread = links.split.size ? MAX_BUCKET_SHARDS : bucketSpread(attempt);
  // The terms this write creates are created when linked (all of them, unless it holds too many links to fit).
  const linksFor = (e: EventItem): TransactionLinks => {
    const linked = new Set([...e.categories, ...e.tags]);
    const terms = links.newTerms.filter((t) => linked.has(t.id));
    return {
      extra: [...links.writes, ...terms.flatMap((t) => termWrites({ ...t, count: e.status === 'publish' ? 1 : 0 }))],
      created: links.created,
      bound,
      spread,
      split: links.split,
    };
  };
  requireRoom(old, next, linksFor, config().tableName);
  const tx = eventTransaction(old, next, config().tableName, linksFor(next));
  try {
    await writeChecked(tx.items, check, () => transact(tx.items, (i) => tx.meaning.get(i)?.()));
  } catch (err) {
    // Writes kept meeting on a linked record: split it, so that the retry (and every later write
    // that links it) names one of its shards instead.
    if (err instanceof TransactionConflicted) await splitAll(err.items.filter((k) => linkedRecord(k, next)));
    throw err;
  }
  // Other events that link a venue or organizer this write saved fields onto show them too (as
  // after its edit); what fails here, the stream consumer completes: the write itself stands.
  for (const place of links.edited)
    await refreshCards(place, REQUEST_FAN_OUT).catch((err: unknown) => logger.warn({ message: 'Card refresh after a saved match failed', id: place.id, err: String(err) }));
  if (links.newTerms.length)
    await addTermBytes(
      next.lang,
      links.newTerms.reduce((n, t) => n + itemBytes(t), 0),
    );
}

/** Whether `key` is the record of a venue, organizer or term `e` links. */
const linkedRecord = (key: { pk: string; sk: string }, e: EventItem) =>
  [...e.venues, ...e.organizers].some((id) => keyOf(keys.post(id)) === keyOf(key)) || [...e.categories, ...e.tags].some((id) => keyOf(keys.term(id)) === keyOf(key));

async function respond(status: number, e: EventItem): Promise<Reply> {
  return recordReply(status, presentEvent(e, await loadLinked([e]), false), e);
}

export async function createEvent(ctx: EventCreate): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  await checkAuthor(ctx);
  const author = await authorOf(ctx);
  const params = { ...ctx.params, status: scaleStatus(ctx.principal, ctx.params.status, undefined) };
  // One id for every attempt: an attempt that lost a race wrote nothing, so its id is still free.
  // Taken within the first attempt, so that a request that never starts one takes none.
  // A retry of a create with its Idempotency-Key takes the id of the first try (createId), and
  // answers with its event when that try landed after all.
  let allocated: Promise<CreateId> | undefined;
  const event = await withRetry(async (attempt) => {
    const title = ctx.params.title;
    const taking = (allocated ??= newId(ctx, 'post'));
    // The links, the id and the slug are read at once. After a lost slug race the slug takes a
    // ticket from the wanted slug's counter (freeSlug).
    const [links, [id, slug], stored] = await waitAll([
      resolveLinks(ctx, author, attempt),
      idAndSlug(
        taking.then((c) => c.id),
        'event',
        ctx.lang,
        // A slug with nothing usable in it falls back to the title's, as wp_insert_post() does.
        slugify(ctx.params.slug ?? '') || slugify(title),
        attempt,
        ctx.imported?.slug,
      ),
      taking.then(async (c) => (c.retried ? ofKind(await getItem(keys.post(c.id)), 'event') : undefined)),
    ]);
    if (stored) return stored;
    const next = eventFrom(params, { id, lang: ctx.lang, slug, author, now: ctx.now, imported: ctx.imported }, links);
    await commit(undefined, next, links, undefined, attempt);
    return next;
  });
  return respond(201, event);
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

export async function updateEvent(ctx: EventUpdate): Promise<Reply> {
  requireRole(ctx.principal, 'contributor');
  const found = await findPost(ctx, 'event');
  const check = checked(ctx.ifMatch, found);
  await requireWrite(ctx, found);
  await checkAuthor(ctx);
  // On the by-slug route the path names the event; a `slug` in the body renames it.
  let wantedSlug = ctx.params.slug;
  const rename = ctx.path.slug !== undefined ? eventArgs.updateBySlug.slug.inBody : undefined;
  if (rename && ctx.input.slug !== undefined) {
    const r = rename.schema.safeParse(ctx.input.slug);
    if (!r.success) throw invalidParam('slug', `slug ${r.error.issues[0]?.message ?? 'is invalid.'}`);
    wantedSlug = r.data;
  }
  const statusOf = (old: EventItem) => (old.status === 'trash' && ctx.params.status === undefined ? 'trash' : scaleStatus(ctx.principal!, ctx.params.status, old.status));
  const recordOnly = wantedSlug === undefined && statusOf(found) === found.status && Object.keys(ctx.params).every((k) => k in RECORD_ONLY || k === 'ml_language');
  if (recordOnly) {
    // A searched field changes: searches read the record until the consumer has indexed it. Noted
    // before the update, so that no answer (an error included) comes after an update searches miss;
    // a note whose update did not land only makes searches read that record until it expires.
    if (['title', 'description', 'excerpt'].some((k) => k in ctx.params)) await noteRecentWrite({ ...found, version: found.version + 1 });
    const updated = await updateFields(ctx, found, check);
    if (updated) return respond(200, updated);
  }
  const author = await authorOf(ctx, found.author);
  let slugRaces = 0;
  // Each attempt re-reads the event and applies only the sent fields on top of it, and its
  // transaction writes only the fields that change (event-writes.ts): a lost race costs a re-read,
  // never another writer's changes (the last writer wins per field). The links are resolved
  // before the read, so that the time between the read and the commit is as short as it can be.
  let links: Resolved | undefined;
  const event = await withRetry(async (attempt, previous) => {
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
    const next = eventFrom({ ...ctx.params, status: statusOf(old) }, { id: old.id, lang: old.lang, slug, author, now: ctx.now, old, imported: ctx.imported }, links);
    await commit(old, next, links, check, attempt);
    return next;
  }, PATCH_RETRY);
  return respond(200, event);
}
