// Cheap revalidation: the entity tag of a record, list or feed read made from what the answer
// depends on rather than from the answer itself, so that a conditional GET of an unchanged answer
// reads the table's change counter (lib/store/validators.ts: one Query of a few tiny items) and
// answers 304 without computing the answer, however large it is.
//
// The tag is a digest of the answer's scope and the counter. The scope is everything an answer
// depends on besides the table: the operation, its path and query as sent (arguments, `_fields`,
// `_envelope`, the link form), the language, the caller (anonymous, or the user and role: what
// credentials show stays private), the deployment (the code and its settings), and the time where
// the operation reads the clock. The counter stands for the table: every write moves it.
//
// Two things can make an answer older than its counter, and neither may be tagged with it:
// - reads of indexes and batch reads are eventually consistent, and shared answers use terms a
//   function kept for `termCacheSeconds` (lib/logic/term-cache.ts). So while the counter moved in
//   the last `settleMs()`, an answer gets the digest of its body instead (the tag every answer had
//   before), which a later conditional GET compares by computing the answer again.
// - time: see `timeKey`. An answer whose dependence on the clock has no known granularity (a
//   relative date such as `now` or `+1 week`, venues "with upcoming events") is not made cheap.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { parseTags, type Revision } from '#lib/contract/revision.js';
import type { RequestContext } from '#lib/contract/request.js';
import { config } from '#lib/runtime/config.js';
import { instantToWall, parseDate } from '#lib/domain/time/dates.js';
import { digestOf } from './conditional.js';

/** The kinds whose reads are revalidated cheaply: the calendar's records, on TEC's routes and WordPress's. */
const CHEAP_KINDS = new Set(['events', 'venues', 'organizers', 'categories', 'tags', 'wpEvents', 'wpVenues', 'wpOrganizers', 'wpTags', 'wpCategories']);

/** The date arguments of `events.list`, which take relative dates (`now`, `tomorrow`, `+1 week`). */
const DATE_ARGS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** Whether a date argument means the same instant whatever the time now (a fixed date, a timestamp). */
function fixedDate(value: unknown, zone: string): boolean {
  if (typeof value === 'number') return true;
  if (typeof value !== 'string') return false;
  // Two instants that differ in every field, the time zone's offset included.
  const a = parseDate(value, zone, new Date(Date.UTC(2001, 1, 3, 4, 5, 6)));
  const b = parseDate(value, zone, new Date(Date.UTC(2013, 7, 19, 17, 31, 47)));
  return a === b;
}

/**
 * The part of the time an answer depends on, '' for none, undefined when it has no known
 * granularity. `events.list` (feeds too): its default window starts at the start of yesterday in
 * the site's zone as of the UTC date, and ends 24 months after the UTC date (lib/logic/event-window.ts);
 * `month=now` and the current month start today in the site's zone. Nothing else there reads the
 * clock, so the answer changes with time only when one of those dates does: both are in the key.
 * (Were the list "events that end after now", the key would have to be the next end among them.)
 */
export function timeKey(req: RequestContext, now: Date): string | undefined {
  const p = req.params as Record<string, unknown>;
  if (req.op.id === 'events.list') {
    const zone = config().siteTimezone;
    if (DATE_ARGS.some((name) => p[name] !== undefined && !fixedDate(p[name], zone))) return undefined;
    return `${now.toISOString().slice(0, 10)}|${instantToWall(now, zone).slice(0, 10)}`;
  }
  // Whether a venue or organizer has an upcoming event changes at any second.
  if ((req.op.id === 'venues.list' || req.op.id === 'organizers.list') && p.only_with_upcoming === true) return undefined;
  return '';
}

let code: string | undefined;
let deployment: { settings: object; key: string } | undefined;
/** The code and settings answering: a deploy that changes how answers look moves every tag. */
function deploymentKey(): string {
  const settings = config();
  if (deployment?.settings !== settings) {
    try {
      // In a function this module is part of its bundle: the bundle's digest names the code.
      code ??= digestOf(readFileSync(fileURLToPath(import.meta.url), 'utf8'));
    } catch {
      code = process.env.AWS_LAMBDA_FUNCTION_VERSION ?? '';
    }
    // Its digest: every read's scope carries it, and the settings are long.
    deployment = { settings, key: digestOf(`${code}|${JSON.stringify(settings)}`) };
  }
  return deployment.key;
}

/**
 * What a read's answer depends on besides the table, as a string; undefined when the read is not
 * revalidated cheaply (its tag stays the digest of its body).
 */
export function revalidationScope(req: RequestContext, event: APIGatewayProxyEventV2, linkForm: string): string | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  if (req.op.access !== 'read' || !CHEAP_KINDS.has(req.op.id.split('.')[0]!)) return undefined;
  const time = timeKey(req, req.now);
  if (time === undefined) return undefined;
  const path = Object.entries(event.pathParameters ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const caller = req.principal ? [req.principal.sub, req.principal.role ?? ''] : req.shared ? [] : ['identified'];
  return JSON.stringify([req.op.id, req.lang, path, event.rawQueryString ?? '', linkForm, caller, time, deploymentKey()]);
}

/** The digest of a scope at a state of the counter. */
export const scopeDigest = (scope: string, stamp: string): string => createHash('sha256').update(scope).update('\0').update(stamp).digest('base64url').slice(0, 22);

/** The tag of an answer: `"<digest>"`, and `"<id>.<version>.<digest>"` for one record (its revision, for If-Match). */
export const scopedTag = (digest: string, revision?: Revision): string => (revision ? `"${revision.id}.${revision.version}.${digest}"` : `"${digest}"`);

/**
 * The tag of `If-None-Match` made from `digest`, when the request holds one (weak or not): a 304
 * sends it back as it was given out. `*` is not enough here: whether the answer exists at all is
 * only known by reading it.
 */
export function heldTag(ifNoneMatch: string | undefined, digest: string): string | undefined {
  if (ifNoneMatch === undefined) return undefined;
  for (const { tag } of parseTags(ifNoneMatch).tags) {
    const m = /^"(?:\d+\.\d+\.)?([A-Za-z0-9_-]+)"$/.exec(tag);
    if (m?.[1] === digest) return tag;
  }
  return undefined;
}
