// The records of a WordPress export file (WXR), from the entries its streaming reader yields
// (lib/import/wxr-types.ts): the same records a live import reads from the same site. Entries
// are kept only as records (the file's text is not held), and links are resolved at the end,
// because an item may name an attachment or a term that the file lists after it.
import type { WxrEntry, WxrPost } from './wxr-types.js';
import { cleanSlug, gmtOr, idRefusal, wpDate, type SitePost, type SiteRecord, type SiteTerm, type SiteUser } from './records.js';
import { eventMeta, organizerFields, rowMeta, venueFields } from './tec-meta.js';

const TAXONOMY: Record<string, SiteTerm['kind']> = { tribe_events_cat: 'category', post_tag: 'tag' };
const KIND: Record<string, SitePost['kind']> = { tribe_venue: 'venue', tribe_organizer: 'organizer', tribe_events: 'event' };

/** The site's records in an export's entries. */
export async function wxrRecords(entries: AsyncIterable<WxrEntry>): Promise<SiteRecord[]> {
  const users: SiteUser[] = [];
  const terms: (SiteTerm & { parentSlug: string })[] = [];
  const posts: WxrPost[] = [];
  const images = new Map<number, string>();
  for await (const e of entries) {
    const idText = e.kind !== 'site' && e.idText !== undefined ? { idText: e.idText } : {};
    if (e.kind === 'author') users.push({ kind: 'user', id: e.id, ...idText, login: e.login, name: e.displayName, email: e.email });
    else if (e.kind === 'term' && TAXONOMY[e.taxonomy]) {
      // A term the file defines without an id (WXR 1.0 writes none) is found or made by its slug.
      const bySlugOnly = e.id === 0 && !e.idText;
      terms.push({
        kind: TAXONOMY[e.taxonomy]!,
        id: bySlugOnly ? 0 : e.id,
        ...(bySlugOnly ? {} : idText),
        name: e.name,
        slug: e.slug,
        description: e.description,
        parent: 0,
        parentSlug: e.parentSlug,
      });
    } else if (e.kind === 'post') {
      if (e.type === 'attachment' && e.attachmentUrl) images.set(e.id, e.attachmentUrl);
      else if (KIND[e.type]) posts.push(e);
    }
  }
  // An item's link to a term the import refuses (its id is none WordPress holds) is left out, by its slug.
  // Terms are matched by the slug they are stored with: an item's `nicename` attribute and the
  // term's own element may write one slug differently (an attribute's line ends read as spaces).
  const key = (kind: SiteTerm['kind'], slug: string) => `${kind}#${cleanSlug(slug)}`;
  const termId = new Map(terms.map((t) => [key(t.kind, t.slug), t.id === 0 || idRefusal(t.idText ?? t.id) ? Number.NaN : t.id]));
  const userId = new Map(users.map((u) => [u.login, u.id]));
  const records: SiteRecord[] = [...users];
  for (const { parentSlug, ...t } of terms) {
    const parent = parentSlug ? termId.get(key(t.kind, parentSlug)) : 0;
    records.push({ ...t, parent: parent === undefined || Number.isNaN(parent) ? 0 : parent });
  }
  // A term an item names that the file does not define (an export of events alone defines none):
  // found here by its slug, or made here with the name the item gives it.
  const named = new Map<string, SiteTerm>();
  const termRef = (kind: SiteTerm['kind'], slug: string): number | string => {
    const id = termId.get(key(kind, slug));
    return id === undefined || Number.isNaN(id) ? cleanSlug(slug) : id;
  };
  for (const p of posts) {
    for (const t of p.terms) {
      const kind = TAXONOMY[t.taxonomy];
      const slug = cleanSlug(t.slug);
      if (!kind || !slug || termId.has(key(kind, slug)) || named.has(key(kind, slug))) continue;
      named.set(key(kind, slug), { kind, id: 0, name: t.name, slug, description: '', parent: 0 });
    }
  }
  records.push(...named.values());
  for (const p of posts) records.push(wxrPost(p, images, termRef, userId));
  return records;
}

/** One venue, organizer or event item as a site record. */
export function wxrPost(p: WxrPost, images: Map<number, string>, termRef: (kind: SiteTerm['kind'], slug: string) => number | string, userId: Map<string, number>): SitePost {
  const kind = KIND[p.type]!;
  const m = rowMeta(p.meta);
  const date = wpDate(p.date);
  const modified = wpDate(p.modified);
  const base = {
    kind,
    id: p.id,
    ...(p.idText !== undefined ? { idText: p.idText } : {}),
    slug: p.slug,
    status: p.status,
    author: userId.get(p.creator) ?? 0,
    date,
    date_utc: gmtOr(p.dateGmt, date),
    modified,
    modified_utc: gmtOr(p.modifiedGmt, modified),
    password: p.password,
  };
  const thumbnail = Number(m.one('_thumbnail_id') ?? 0);
  const text = { description: p.content, image: images.get(thumbnail) ?? '' };
  if (kind === 'venue') return { ...base, fields: { venue: p.title, ...text, ...venueFields(m) } };
  if (kind === 'organizer') return { ...base, fields: { organizer: p.title, ...text, ...organizerFields(m) } };
  const terms = (kind: SiteTerm['kind'], taxonomy: string) => [...new Set(p.terms.filter((t) => t.taxonomy === taxonomy && cleanSlug(t.slug)).map((t) => termRef(kind, t.slug)))];
  const { fields, utc, refused, series } = eventMeta(m, p.menuOrder);
  return {
    ...base,
    ...(utc ? { utc } : {}),
    ...(refused ? { refused } : {}),
    ...(series ? { series } : {}),
    ...(p.parent > 0 ? { parent: p.parent } : {}),
    fields: {
      title: p.title,
      ...text,
      excerpt: p.excerpt,
      ...fields,
      categories: terms('category', 'tribe_events_cat'),
      tags: terms('tag', 'post_tag'),
    },
  };
}
