// HTTP validators and caching (RFC 9110 §8.8, §13; RFC 9111 §5.2): the entity tag of an answer,
// `If-None-Match` on reads, and the `Cache-Control` an answer may carry (`If-Match` on writes:
// lib/contract/revision.ts).
//
// A tag is `"<digest>"` for a list, and `"<id>.<version>.<digest>"` for one record: the digest
// covers what the caller was shown (a field of a linked term can change without the record's
// version), and the version names the record's revision, which a write's `If-Match` must still
// find (every write to a record bumps its version, and the write is conditional on it).
import { createHash } from 'node:crypto';
import { parseTags, type Revision } from '#lib/contract/revision.js';

export function digestOf(body: string, extra = ''): string {
  return createHash('sha256').update(body).update('\0').update(extra).digest('base64url').slice(0, 22);
}

export function entityTag(body: string, revision?: Revision, extra = ''): string {
  const digest = digestOf(body, extra);
  return revision ? `"${revision.id}.${revision.version}.${digest}"` : `"${digest}"`;
}

/** `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`. */
export function noneMatch(value: string | undefined, tag: string): boolean {
  if (value === undefined) return false;
  const { any, tags } = parseTags(value);
  return any || tags.some((t) => t.tag === tag);
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
