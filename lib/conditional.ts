// HTTP validators and caching (RFC 9110 §8.8, §13; RFC 9111 §5.2): the entity tag of an answer,
// `If-None-Match` on reads, `If-Match` on writes, and the `Cache-Control` an answer may carry.
//
// A tag is `"<digest>"` for a list, and `"<id>.<version>.<digest>"` for one record: the digest
// covers what the caller was shown (a field of a linked term can change without the record's
// version), and the version names the record's revision, which a write's `If-Match` must still
// find (every write to a record bumps its version, and the write is conditional on it).
import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';

/** The record a single-record answer shows, for its tag. */
export interface Revision {
  id: number;
  version: number;
}

export function digestOf(body: string, extra = ''): string {
  return createHash('sha256').update(body).update('\0').update(extra).digest('base64url').slice(0, 22);
}

export function entityTag(body: string, revision?: Revision, extra = ''): string {
  const digest = digestOf(body, extra);
  return revision ? `"${revision.id}.${revision.version}.${digest}"` : `"${digest}"`;
}

/**
 * The tags of an `If-None-Match` / `If-Match` value: `*`, or a list of quoted tags, weak or not.
 * Anything that is not a tag is ignored (a list with no tag in it matches nothing).
 */
export function parseTags(value: string): { any: boolean; tags: { tag: string; weak: boolean }[] } {
  if (value.trim() === '*') return { any: true, tags: [] };
  const tags: { tag: string; weak: boolean }[] = [];
  for (const m of value.matchAll(/(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g)) tags.push({ tag: m[2]!, weak: m[1] !== undefined });
  return { any: false, tags };
}

/** `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`. */
export function noneMatch(value: string | undefined, tag: string): boolean {
  if (value === undefined) return false;
  const { any, tags } = parseTags(value);
  return any || tags.some((t) => t.tag === tag);
}

/** The record revision a strong tag names, if it names one. */
function revisionOf(tag: string): Revision | undefined {
  const m = /^"(\d+)\.(\d+)\.[A-Za-z0-9_-]+"$/.exec(tag);
  return m ? { id: Number(m[1]), version: Number(m[2]) } : undefined;
}

export const preconditionFailed = () =>
  new ApiError(412, 'rest_precondition_failed', 'The record was changed since the version named in If-Match; nothing was written. Read it again.');

/**
 * A write's `If-Match` against the record it is about to change: `*` or a strong tag of the
 * record's current revision holds, anything else (a weak tag, another revision, another record,
 * a list's tag) is 412. Without the header every write proceeds, as for TEC's clients.
 */
export function requireMatch(value: string | undefined, record: Revision): void {
  if (value === undefined) return;
  const { any, tags } = parseTags(value);
  if (any) return;
  const holds = tags.some((t) => {
    if (t.weak) return false;
    const r = revisionOf(t.tag);
    return r !== undefined && r.id === record.id && r.version === record.version;
  });
  if (!holds) throw preconditionFailed();
}

export interface CachePolicy {
  cacheMaxAge: number;
  cacheStaleWhileRevalidate: number;
}

/**
 * Shared caches may keep an anonymous read's success for a few seconds; anything a caller saw
 * because of who they are (credentials, a post password) or any other answer is for them alone.
 */
export function cacheControl(policy: CachePolicy, shared: boolean): string {
  return shared ? `public, max-age=${policy.cacheMaxAge}, stale-while-revalidate=${policy.cacheStaleWhileRevalidate}` : 'private, no-store';
}

/** Every answer depends on the credentials sent and (through CORS) on the caller's origin. */
export const VARY = 'Authorization, Origin';
