// The records a site is moved as, one shape per kind whatever the source (a live site or its
// export file): what this API's create and update paths take, with what they cannot be told
// (the id, the slug, the author, the dates) beside it.
import type { ProRecurrence } from './pro-recurrence/rfc5545.js';
import { createHash } from 'node:crypto';
import { slugify } from '#lib/domain/slug.js';

export type RecordKind = 'user' | 'category' | 'tag' | 'venue' | 'organizer' | 'event';

/** What every record carries beside its fields: why the import may not write it, if it may not. */
interface Checked {
  /** The id as the source wrote it, when the number differs from that text (too long, or no number). */
  idText?: string;
  /** A reason the record is not written (a link to an id no WordPress site holds), from its source. */
  refused?: string;
}

/** The order records are written in: what a record links to is there before it. */
export const KINDS: readonly RecordKind[] = ['user', 'category', 'tag', 'venue', 'organizer', 'event'];

export interface SiteUser extends Checked {
  kind: 'user';
  id: number;
  /** The login, which is this API's subject (the login of HTTP Basic with an app password). */
  login: string;
  name: string;
  email: string;
  /** WordPress's highest role of the user, when the source tells it (WXR does not). */
  role?: string;
}

export interface SiteTerm extends Checked {
  kind: 'category' | 'tag';
  id: number;
  name: string;
  slug: string;
  description: string;
  /** Categories only: the parent's id, 0 at the top. */
  parent: number;
}

export interface SitePost extends Checked {
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
  /** Events that are Events Calendar Pro series on the site: their rules in RFC 5545, or why they cannot be said so. */
  series?: ProRecurrence;
  /** Events: the post's parent, when it has one (Events Calendar Pro 3 to 5 made each occurrence of a series a child post of its first event). */
  parent?: number;
  /** The other fields, named as in a create request of this API (TEC's v1 names). */
  fields: Record<string, unknown>;
}

export type SiteRecord = SiteUser | SiteTerm | SitePost;

/** WordPress's ids are `bigint unsigned`: 1 to 2^64 − 1. */
const WP_MAX_ID = 2n ** 64n - 1n;

/**
 * Why `id` (a number, or the text a source wrote it as) cannot be a record's id here, or
 * undefined when it can: WordPress's ids are whole numbers from 1 (bigint unsigned), and this
 * API's must also be numbers JavaScript holds exactly (at most Number.MAX_SAFE_INTEGER).
 */
export function idRefusal(id: number | string): string | undefined {
  const text = String(id).trim();
  if (text === '') return 'no id';
  if (typeof id === 'number' ? !Number.isInteger(id) : !/^[+-]?\d+$/.test(text)) return `id ${JSON.stringify(text.slice(0, 40))} is not a whole number`;
  const n = BigInt(typeof id === 'number' ? id : text);
  if (n < 1n) return `id ${text} is not a positive whole number: WordPress's ids start at 1`;
  if (n > WP_MAX_ID) return `id ${text} is above 18446744073709551615, the highest id WordPress holds`;
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) return `id ${text} is above ${Number.MAX_SAFE_INTEGER} (2^53 − 1), the highest id this API holds`;
  return undefined;
}

/**
 * Why a link to `ref` (a venue, organizer, term, parent or author id) cannot be kept, or
 * undefined when it can or when it names nothing: '', 0 and '0' are how WordPress says "none".
 */
export function refRefusal(what: string, ref: unknown): string | undefined {
  if (ref === undefined || ref === null || ref === '' || ref === 0 || ref === '0') return undefined;
  const why = typeof ref === 'number' || typeof ref === 'string' ? idRefusal(ref) : `id ${JSON.stringify(ref)} is not a whole number`;
  const shown = typeof ref === 'string' && !/^[+-]?\d+$/.test(ref) ? JSON.stringify(ref.slice(0, 40)) : String(ref);
  return why ? `links ${what} ${shown}: ${why}` : undefined;
}

/** The first reason a list of links cannot be kept. */
export const refsRefusal = (what: string, refs: readonly unknown[]): string | undefined => {
  for (const r of refs) {
    const why = refRefusal(what, r);
    if (why) return why;
  }
  return undefined;
};

/** A term known by its slug alone (an export names it on items, or defines it without an id): found or made by it. */
export const bySlugOnly = (r: SiteRecord): boolean => (r.kind === 'category' || r.kind === 'tag') && r.id === 0 && r.idText === undefined;

/** Why the import may not write `r`, or undefined when it may. */
export const recordRefusal = (r: SiteRecord): string | undefined => (bySlugOnly(r) ? undefined : idRefusal(r.idText ?? r.id)) ?? r.refused;

/** Percent-encoded UTF-8 (`%d0%bf`, how WordPress keeps other scripts in a slug) as its characters. */
const decodeOctets = (slug: string): string =>
  slug.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/**
 * A site's slug as it is stored here: sanitize_title() as WordPress applies it to a given slug
 * (lib/domain/slug.ts), after its percent-encoded letters are read as letters, so that no
 * control character, space, quote or other character WordPress would not store reaches the
 * store. '' when nothing usable remains: the record then takes one from its title, as a new one does.
 */
export const cleanSlug = (slug: string): string => (STORED_FORM.test(slug) ? slug : slugify(decodeOctets(slug)));

/**
 * A slug as WordPress stores one: lower-case letters, digits, `_`, `-` and percent-encoded octets
 * (other scripts), at most 200 characters. It is kept as the site has it, so that its URLs stay.
 */
const STORED_FORM = /^(?:[a-z0-9_-]|%[0-9a-f]{2}){1,200}$/;

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
