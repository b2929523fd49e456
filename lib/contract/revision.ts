// A record's revision (its id and version) and a write's `If-Match` against it (RFC 9110 §13.1.1):
// the entity tags of single-record answers name the revision (lib/http/conditional.ts).
import { ApiError } from './errors.js';

/** The record a single-record answer shows, for its tag. */
export interface Revision {
  id: number;
  version: number;
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
