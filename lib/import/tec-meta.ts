// TEC's post meta as this API's fields: the one mapping both readers use (a live site's wp/v2
// `meta`, an export file's `wp:postmeta` rows), so that the same site imports the same records
// whichever way it is read. Defaults are TEC's for a row that was never written (its REST
// repository, Tribe__Events__REST__V1__Post_Repository): map flags shown as true, a website
// shown as the event's own link, the currency fields empty.
import { proBlocksRecurrenceToRfc5545, proRecurrenceToRfc5545, type ProEvent, type ProRecurrence } from './pro-recurrence/rfc5545.js';
import { refsRefusal, truthy, wpDate } from './records.js';

/** A post's meta: the first value of a key (undefined when the post has no such row), and every value. */
export interface Meta {
  one(key: string): string | undefined;
  all(key: string): string[];
}

/** An export's rows (`[key, value]` in file order; a key may repeat). */
export const rowMeta = (rows: readonly (readonly [string, string])[]): Meta => ({
  one: (key) => rows.find(([k]) => k === key)?.[1],
  all: (key) => rows.filter(([k]) => k === key).map(([, v]) => v),
});

/**
 * wp/v2's `meta` object (context=edit), whose registered keys come typed (booleans, arrays) and
 * filled with their defaults: a key it lists is read as a row, one it omits as absent.
 */
export const jsonMeta = (meta: Record<string, unknown> | undefined): Meta => {
  const text = (v: unknown): string => (v === true ? '1' : v === false || v == null ? '' : String(v));
  const values = (key: string): unknown[] | undefined => {
    if (!meta || !Object.hasOwn(meta, key)) return undefined;
    const v = meta[key];
    return Array.isArray(v) ? v : [v];
  };
  return {
    one: (key) => {
      const v = values(key);
      return v === undefined ? undefined : text(v[0]);
    },
    all: (key) => (values(key) ?? []).map(text),
  };
};

/**
 * `m` with some rows known otherwise: a key given `undefined` is a row never written. A live site's
 * wp/v2 `meta` fills every key it registers (a flag never written shows as false, a website as ''),
 * so the rows TEC's own answer tells apart come from that answer.
 */
export const withRows = (m: Meta, rows: Record<string, string | undefined>): Meta => ({
  one: (key) => (Object.hasOwn(rows, key) ? rows[key] : m.one(key)),
  all: (key) => (Object.hasOwn(rows, key) ? (rows[key] === undefined ? [] : [rows[key]!]) : m.all(key)),
});

const flag = (v: string | undefined, absent: boolean) => (v === undefined ? absent : truthy(v));
const ids = (values: string[]) => [...new Set(values.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0))];

/** A venue's fields (its title and texts aside). */
export function venueFields(m: Meta): Record<string, unknown> {
  const s = (key: string) => m.one(key) ?? '';
  const coordinate = (key: string) => {
    const v = m.one(key);
    return v === undefined || v.trim() === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);
  };
  const lat = coordinate('_VenueLat');
  const lng = coordinate('_VenueLng');
  return {
    address: s('_VenueAddress'),
    city: s('_VenueCity'),
    country: s('_VenueCountry'),
    province: s('_VenueProvince'),
    state: s('_VenueState'),
    zip: s('_VenueZip'),
    phone: s('_VenuePhone'),
    // As stored: TEC shows the row as it is, and leaves it out when it is empty.
    stateprovince: s('_VenueStateProvince'),
    website: s('_VenueURL'),
    show_map: flag(m.one('_VenueShowMap'), true),
    show_map_link: flag(m.one('_VenueShowMapLink'), true),
    ...(lat !== undefined ? { geo_lat: lat } : {}),
    ...(lng !== undefined ? { geo_lng: lng } : {}),
  };
}

/** An organizer's fields (its title and texts aside). */
export const organizerFields = (m: Meta): Record<string, unknown> => ({
  phone: m.one('_OrganizerPhone') ?? '',
  email: m.one('_OrganizerEmail') ?? '',
  website: m.one('_OrganizerWebsite') ?? '',
});

/** The currency an event's cost is shown with, as the site stored it. */
export interface SiteCurrency {
  symbol: string;
  code: string;
  position: string;
}

/**
 * An Events Calendar Pro series' rules, from its classic `_EventRecurrence` row or the block
 * editor's JSON rows (what a live site's wp/v2 shows): undefined for an event that is no series.
 */
function proSeries(m: Meta, event: ProEvent): ProRecurrence | undefined {
  const classic = m.one('_EventRecurrence');
  const blocks = m.one('_tribe_blocks_recurrence_rules');
  const read = classic
    ? proRecurrenceToRfc5545(classic, event)
    : blocks && blocks !== '[]'
      ? proBlocksRecurrenceToRfc5545(blocks, m.one('_tribe_blocks_recurrence_exclusions'), event)
      : undefined;
  // Pro keeps the row, with no rules, on an event whose series was undone.
  return read && ('unsupported' in read || read.lines.length) ? read : undefined;
}

/**
 * An event's fields from its meta and its menu order (TEC's sticky is -1), its title, texts and
 * terms aside, and its stored UTC times.
 */
export function eventMeta(m: Meta, menuOrder = 0): { fields: Record<string, unknown>; utc?: { start: string; end: string }; refused?: string; series?: ProRecurrence } {
  const s = (key: string) => m.one(key) ?? '';
  // A link to an id no WordPress site holds (-5, 2^53 + 1): the event is not imported, and says why.
  const refused = refsRefusal('venue', m.all('_EventVenueID')) ?? refsRefusal('organizer', m.all('_EventOrganizerID'));
  const url = m.one('_EventURL');
  const currency: SiteCurrency = { symbol: s('_EventCurrencySymbol'), code: s('_EventCurrencyCode'), position: s('_EventCurrencyPosition') };
  const utc = { start: wpDate(s('_EventStartDateUTC')), end: wpDate(s('_EventEndDateUTC')) };
  const when = { start: wpDate(s('_EventStartDate')), end: wpDate(s('_EventEndDate')), allDay: truthy(s('_EventAllDay')) };
  const series = proSeries(m, { ...when, timezone: s('_EventTimezone') || 'UTC' });
  return {
    ...(utc.start && utc.end ? { utc } : {}),
    ...(refused ? { refused } : {}),
    ...(series ? { series } : {}),
    fields: {
      start_date: when.start,
      end_date: when.end,
      timezone: s('_EventTimezone'),
      timezone_abbr: s('_EventTimezoneAbbr'),
      all_day: when.allDay,
      cost: s('_EventCost'),
      ...(currency.symbol || currency.code || currency.position ? { currency } : {}),
      // An event whose _EventURL was never written shows its own link as its website.
      ...(url === undefined ? {} : { website: url }),
      show_map: flag(m.one('_EventShowMap'), true),
      show_map_link: flag(m.one('_EventShowMapLink'), true),
      featured: Number(s('_tribe_featured')) === 1,
      sticky: menuOrder === -1,
      hide_from_listings: s('_EventHideFromUpcoming') === 'yes',
      venue: ids(m.all('_EventVenueID')),
      organizer: ids(m.all('_EventOrganizerID')),
    },
  };
}
