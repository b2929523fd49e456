// The records a site is moved as, one shape per kind whatever the source (a live site or its
// export file): what this API's create and update paths take, with what they cannot be told
// (the id, the slug, the author, the dates) beside it.
import { createHash } from 'node:crypto';

export type RecordKind = 'user' | 'category' | 'tag' | 'venue' | 'organizer' | 'event';

/** The order records are written in: what a record links to is there before it. */
export const KINDS: readonly RecordKind[] = ['user', 'category', 'tag', 'venue', 'organizer', 'event'];

export interface SiteUser {
  kind: 'user';
  id: number;
  /** The login, which is this API's subject (the login of HTTP Basic with an app password). */
  login: string;
  name: string;
  email: string;
  /** WordPress's highest role of the user, when the source tells it (WXR does not). */
  role?: string;
}

export interface SiteTerm {
  kind: 'category' | 'tag';
  id: number;
  name: string;
  slug: string;
  description: string;
  /** Categories only: the parent's id, 0 at the top. */
  parent: number;
}

export interface SitePost {
  kind: 'venue' | 'organizer' | 'event';
  id: number;
  slug: string;
  status: string;
  author: number;
  /** `YYYY-MM-DD HH:MM:SS`, in the site zone and in UTC. */
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  password: string;
  /** Events: the start and end in UTC as the site stored them. */
  utc?: { start: string; end: string };
  /** The other fields, named as in a create request of this API (TEC's v1 names). */
  fields: Record<string, unknown>;
}

export type SiteRecord = SiteUser | SiteTerm | SitePost;

/** Sorts keys, so that a fingerprint does not depend on the order the source listed fields in. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** A short digest of everything a record holds: equal fingerprints mean there is nothing to write. */
export const fingerprint = (r: SiteRecord): string =>
  createHash('sha256')
    .update(JSON.stringify(canonical(r)))
    .digest('base64url')
    .slice(0, 22);

/** Categories ordered so that each parent comes before its children (a parent not listed counts as top). */
export function parentsFirst<T extends { id: number; parent: number }>(terms: T[]): T[] {
  const byId = new Map(terms.map((t) => [t.id, t]));
  const depth = (t: T, seen = new Set<number>()): number => {
    const p = byId.get(t.parent);
    if (!p || seen.has(t.id)) return 0;
    seen.add(t.id);
    return 1 + depth(p, seen);
  };
  return [...terms].sort((a, b) => depth(a) - depth(b) || a.id - b.id);
}

/** WordPress's `YYYY-MM-DDTHH:MM:SS` (REST) or `YYYY-MM-DD HH:MM:SS` (WXR, TEC meta) as this API's form. */
export const wpDate = (s: string | null | undefined): string => (s ?? '').replace('T', ' ').slice(0, 19);

/** A GMT date WordPress leaves unset (drafts never saved with one) is the site-zone date. */
export const gmtOr = (gmt: string | null | undefined, local: string): string => {
  const g = wpDate(gmt);
  return g && !g.startsWith('0000') ? g : local;
};

/** TEC's stored booleans: true, '1', 'yes'. */
export const truthy = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'yes' || v === 'true';
