// The records of a WordPress export file (WXR), from the entries its streaming reader yields
// (lib/import/wxr-types.ts): the same records a live import reads from the same site. Entries
// are kept only as records (the file's text is not held), and links are resolved at the end,
// because an item may name an attachment or a term that the file lists after it.
import type { WxrEntry, WxrPost } from './wxr-types.js';
import { gmtOr, truthy, wpDate, type SitePost, type SiteRecord, type SiteTerm, type SiteUser } from './records.js';

const TAXONOMY: Record<string, SiteTerm['kind']> = { tribe_events_cat: 'category', post_tag: 'tag' };
const KIND: Record<string, SitePost['kind']> = { tribe_venue: 'venue', tribe_organizer: 'organizer', tribe_events: 'event' };

/** The first value of a meta key, or undefined. */
const metaOf = (p: WxrPost, key: string) => p.meta.find(([k]) => k === key)?.[1];
/** Every value of a repeated meta key (one `_EventOrganizerID` row per organizer). */
const metaAll = (p: WxrPost, key: string) => p.meta.filter(([k]) => k === key).map(([, v]) => v);

/** The site's records in an export's entries. */
export async function wxrRecords(entries: AsyncIterable<WxrEntry>): Promise<SiteRecord[]> {
  const users: SiteUser[] = [];
  const terms: (SiteTerm & { parentSlug: string })[] = [];
  const posts: WxrPost[] = [];
  const images = new Map<number, string>();
  for await (const e of entries) {
    if (e.kind === 'author') users.push({ kind: 'user', id: e.id, login: e.login, name: e.displayName, email: e.email });
    else if (e.kind === 'term' && TAXONOMY[e.taxonomy])
      terms.push({ kind: TAXONOMY[e.taxonomy]!, id: e.id, name: e.name, slug: e.slug, description: e.description, parent: 0, parentSlug: e.parentSlug });
    else if (e.kind === 'post') {
      if (e.type === 'attachment' && e.attachmentUrl) images.set(e.id, e.attachmentUrl);
      else if (KIND[e.type]) posts.push(e);
    }
  }
  const termId = new Map(terms.map((t) => [`${t.kind}#${t.slug}`, t.id]));
  const userId = new Map(users.map((u) => [u.login, u.id]));
  const records: SiteRecord[] = [...users];
  for (const { parentSlug, ...t } of terms) records.push({ ...t, parent: parentSlug ? (termId.get(`${t.kind}#${parentSlug}`) ?? 0) : 0 });
  for (const p of posts) records.push(wxrPost(p, images, termId, userId));
  return records;
}

/** One venue, organizer or event item as a site record. */
export function wxrPost(p: WxrPost, images: Map<number, string>, termId: Map<string, number>, userId: Map<string, number>): SitePost {
  const kind = KIND[p.type]!;
  const m = (key: string) => metaOf(p, key) ?? '';
  const date = wpDate(p.date);
  const modified = wpDate(p.modified);
  const base = {
    kind,
    id: p.id,
    slug: p.slug,
    status: p.status,
    author: userId.get(p.creator) ?? 0,
    date,
    date_utc: gmtOr(p.dateGmt, date),
    modified,
    modified_utc: gmtOr(p.modifiedGmt, modified),
    password: p.password,
  };
  const thumbnail = Number(metaOf(p, '_thumbnail_id') ?? 0);
  const text = { description: p.content, image: images.get(thumbnail) ?? '' };
  if (kind === 'venue') {
    const lat = metaOf(p, '_VenueLat');
    const lng = metaOf(p, '_VenueLng');
    return {
      ...base,
      fields: {
        venue: p.title,
        ...text,
        address: m('_VenueAddress'),
        city: m('_VenueCity'),
        country: m('_VenueCountry'),
        province: m('_VenueProvince'),
        state: m('_VenueState'),
        zip: m('_VenueZip'),
        phone: m('_VenuePhone'),
        stateprovince: m('_VenueStateProvince'),
        website: m('_VenueURL'),
        show_map: truthy(m('_VenueShowMap')),
        show_map_link: truthy(m('_VenueShowMapLink')),
        ...(lat ? { geo_lat: Number(lat) } : {}),
        ...(lng ? { geo_lng: Number(lng) } : {}),
      },
    };
  }
  if (kind === 'organizer') return { ...base, fields: { organizer: p.title, ...text, phone: m('_OrganizerPhone'), email: m('_OrganizerEmail'), website: m('_OrganizerWebsite') } };
  const terms = (kind: SiteTerm['kind'], taxonomy: string) =>
    p.terms.filter((t) => t.taxonomy === taxonomy).flatMap((t) => (termId.has(`${kind}#${t.slug}`) ? [termId.get(`${kind}#${t.slug}`)!] : []));
  const ids = (key: string) => [
    ...new Set(
      metaAll(p, key)
        .map(Number)
        .filter((n) => n > 0),
    ),
  ];
  const url = metaOf(p, '_EventURL');
  const utc = { start: wpDate(m('_EventStartDateUTC')), end: wpDate(m('_EventEndDateUTC')) };
  return {
    ...base,
    ...(utc.start && utc.end ? { utc } : {}),
    fields: {
      title: p.title,
      ...text,
      excerpt: p.excerpt,
      start_date: wpDate(m('_EventStartDate')),
      end_date: wpDate(m('_EventEndDate')),
      timezone: m('_EventTimezone'),
      all_day: truthy(m('_EventAllDay')),
      cost: m('_EventCost'),
      // An event whose _EventURL was never set shows its own link as its website (as live).
      ...(url === undefined ? {} : { website: url }),
      show_map: truthy(m('_EventShowMap')),
      show_map_link: truthy(m('_EventShowMapLink')),
      featured: truthy(m('_tribe_featured')),
      sticky: p.menuOrder === -1,
      hide_from_listings: truthy(m('_EventHideFromUpcoming')),
      venue: ids('_EventVenueID'),
      organizer: ids('_EventOrganizerID'),
      categories: terms('category', 'tribe_events_cat'),
      tags: terms('tag', 'post_tag'),
    },
  };
}
