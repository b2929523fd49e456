// GET /changes: what changed since a cursor, from the change log (lib/store/change-log.ts), each
// record as `GET` by id answers it to this caller now.
//
// A cursor (lib/domain/sync-cursor.ts) holds the language and a position in its log, signed with a
// key derived from the application-password key (the one secret every function holds): a cursor
// made by another deployment, or before that key was rotated, is not this API's (410), as is one
// older than the log keeps. The position is either the last entry of a full page or a settled
// bound (`settledBound`): a cursor never passes a time at which entries may still be appended, so
// following `next` misses nothing.
//
// Cost: one Query of the log (per_page + 1 entries), one batch read of the page's records (100
// keys a request), then what presenting them reads at most (the events' terms and the venues and
// organizers they carry no card of, category ancestors, split counts): bounded by the page, never
// by the size of the log or of the table.
import { createHmac } from 'node:crypto';
import { ApiError, invalidParam } from '#lib/contract/errors.js';
import { json, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { makeCursor, readCursor } from '#lib/domain/sync-cursor.js';
import { nowUtc } from '#lib/domain/time/dates.js';
import { passwordKey } from '#lib/auth/app-password-key.js';
import { canRead, canWrite, isEditor } from '#lib/auth/permissions.js';
import { presentEvent, presentOrganizer, presentVenue } from '#lib/present/present.js';
import { wellTyped } from '#lib/present/well-typed.js';
import { config, type Lang } from '#lib/runtime/config.js';
import { waitAll } from '#lib/runtime/settle.js';
import { positionTime, readChanges, retentionMs, settledBound } from '#lib/store/change-log.js';
import type { AnyPost, ChangeEntryItem, EventItem, TermItem } from '#lib/store/items.js';
import { keys } from '#lib/store/keys.js';
import { batchGet, type ItemKey } from '#lib/store/reads.js';
import { countedTermsOf } from '#lib/store/counted-reads.js';
import { loadLinked } from './common.js';
import { presentSingleTerm } from './term-reads.js';
import { archivePaths } from './term-paths.js';

type Ctx = RequestContext<ArgsOf<'changes.list'>>;
type Stored = AnyPost | TermItem;

const TERM_KINDS = new Set(['category', 'tag']);

let derived: { from: Buffer; key: Buffer } | undefined;
/** The cursors' key: derived from the application-password key, so that it is a secret of this deployment. */
export async function cursorKey(): Promise<Buffer> {
  const from = await passwordKey();
  if (derived?.from !== from) derived = { from, key: createHmac('sha256', from).update('sync cursors').digest() };
  return derived.key;
}

export const cursorExpired = () =>
  new ApiError(
    410,
    'rest_cursor_expired',
    `The cursor is older than the ${config().changeLogDays} days the change log keeps, or was not made by this API for this language. Take a new cursor (without since), list everything again, then follow it.`,
  );

/** A cursor for `position` of `lang`'s log. */
const cursorOf = (lang: Lang, position: string, key: Buffer) => makeCursor(`${lang}|${position}`, positionTime(position), key);

/** The log position a client's cursor names, or the error it gets. */
function positionOf(ctx: Ctx, since: string, key: Buffer): string {
  const read = readCursor(since, key, ctx.now.getTime(), retentionMs());
  if (!read.ok) throw read.why === 'malformed' ? invalidParam('since', 'since is not a cursor of this route.') : cursorExpired();
  const bar = read.position.indexOf('|');
  // Made for another language's log (signed: it is this API's, but not for this route).
  if (read.position.slice(0, bar) !== ctx.lang) throw cursorExpired();
  return read.position.slice(bar + 1);
}

export async function listChanges(ctx: Ctx): Promise<Reply> {
  const key = await cursorKey();
  const bound = settledBound(ctx.now.getTime());
  const since = ctx.params.since;
  if (since === undefined) return json(200, { changes: [], next: cursorOf(ctx.lang, bound, key), more: false });
  const after = positionOf(ctx, since, key);
  const perPage = ctx.params.per_page;
  const entries = await readChanges(ctx.lang, after, bound, perPage + 1);
  const more = entries.length > perPage;
  const page = entries.slice(0, perPage);
  // Past the page's last entry when there is more; else as far as the log is settled (a cursor
  // of a function whose clock ran ahead stays where it is).
  let next = bound;
  if (more) next = page.at(-1)!.sk;
  else if (after > bound) next = after;
  return json(200, { changes: await present(ctx, latestPerRecord(page)), next: cursorOf(ctx.lang, next, key), more });
}

/** A record's latest entry of the page, with whether it was public before the first one. */
interface Latest {
  entry: ChangeEntryItem;
  wasPublic: boolean;
}

/** One per record, at the place of its latest entry. */
function latestPerRecord(page: readonly ChangeEntryItem[]): Latest[] {
  const byRecord = new Map<string, Latest>();
  for (const entry of page) {
    const name = `${entry.kind}#${entry.id}`;
    const earlier = byRecord.get(name);
    byRecord.delete(name);
    byRecord.set(name, { entry, wasPublic: earlier?.wasPublic ?? entry.wasPublic });
  }
  return [...byRecord.values()];
}

const keyOf = (e: ChangeEntryItem): ItemKey<Stored> => (TERM_KINDS.has(e.kind) ? keys.term(e.id) : keys.post(e.id));

/** The record of an entry as it is now in this language; undefined when gone. */
function current(ctx: Ctx, e: ChangeEntryItem, stored: Stored | undefined): Stored | undefined {
  if (!stored || stored.lang !== ctx.lang) return undefined;
  const kind = 'taxonomy' in stored ? stored.taxonomy : stored.kind;
  return kind === e.kind ? stored : undefined;
}

/** Whether `GET` by id shows the record to the caller (a protected event: with context=edit, to one who may edit it). */
async function readable(ctx: Ctx, record: Stored): Promise<boolean> {
  if ('taxonomy' in record) return true;
  if (record.status === 'trash' || !(await canRead(ctx, record))) return false;
  return record.kind !== 'event' || !record.password || canWrite(ctx, record);
}

async function present(ctx: Ctx, latest: readonly Latest[]): Promise<Record<string, unknown>[]> {
  // Eventually consistent, as lists read records: the page's changes were committed at least the
  // settling time ago, and a later change is a later entry, which shows the record again.
  const found = await batchGet(latest.map((l) => keyOf(l.entry)));
  const records = latest.map((l) => current(ctx, l.entry, found.get(keyOf(l.entry))));
  const shown = await waitAll(records.map((r) => (r ? readable(ctx, r) : false)));
  const bodies = await presentRecords(
    ctx,
    records.filter((r, i): r is Stored => r !== undefined && shown[i]!),
  );
  const editor = isEditor(ctx.principal);
  return latest.flatMap(({ entry, wasPublic }, i) => {
    const change = { type: entry.kind, id: entry.id, modified_utc: nowUtc(new Date(entry.at)) };
    const record = records[i];
    if (record && shown[i]) {
      // A later entry, not settled yet, restored it: it is there now.
      const action = entry.action === 'trash' || entry.action === 'delete' ? 'update' : entry.action;
      return [{ ...change, action, record: bodies.get(record)! }];
    }
    // Never shown to anonymous callers, before or now: nothing to take back.
    if (!ctx.principal && !wasPublic) return [];
    return [{ ...change, action: editor && record && 'status' in record && record.status === 'trash' ? 'trash' : 'delete' }];
  });
}

/** The records as their reads by id present them, read together: one batch read per kind of link. */
async function presentRecords(ctx: Ctx, records: readonly Stored[]): Promise<Map<Stored, Record<string, unknown>>> {
  const events = records.filter((r): r is EventItem => 'kind' in r && r.kind === 'event');
  const typed = new Map(events.map((e) => [e, wellTyped(e)]));
  const terms = records.filter((r): r is TermItem => 'taxonomy' in r);
  const [linked, counted] = await waitAll([loadLinked([...typed.values()], { shared: ctx.shared }), countedTermsOf(terms)]);
  const paths = await archivePaths(counted);
  const out = new Map<Stored, Record<string, unknown>>();
  for (const [i, t] of terms.entries()) out.set(t, presentSingleTerm(ctx, counted[i]!, paths.get(t.id)));
  for (const r of records) {
    if ('taxonomy' in r) continue;
    if (r.kind === 'event') out.set(r, presentEvent(typed.get(r)!, linked, true));
    else out.set(r, r.kind === 'venue' ? presentVenue(r, true) : presentOrganizer(r, true));
  }
  return out;
}
