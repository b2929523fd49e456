// What a WordPress export file (WXR, Tools → Export) holds, entry by entry, as the streaming reader
// yields it: text as stored (CDATA unwrapped, entities decoded), nothing rendered or interpreted.
// The importer maps these entries onto the site's records.
//
// What TEC 6.17 (WordPress 6.8) writes in an export, read from the live site's export.php for records
// made through TEC's REST API (test/tec/wxr.test.ts, test/fixtures/wxr/tec-export.xml). Every value is
// a string; a row is absent when the field was never set (wp/v2 then shows its default: '', false, []).
// - tribe_events: _EventStartDate, _EventEndDate, _EventStartDateUTC, _EventEndDateUTC ('YYYY-MM-DD
//   HH:MM:SS'; all-day: 00:00:00 to 23:59:59), _EventDuration (seconds; absent on all-day events),
//   _EventTimezone ('Europe/Vilnius', or 'UTC+0' for the site's zone), _EventTimezoneAbbr ('EET',
//   '+0545'), _EventAllDay ('1' through the REST API, 'yes' from TEC's editor), _EventVenueID (one
//   row), _EventOrganizerID (ONE ROW PER ORGANIZER, in the event's order), _EventCost (free text,
//   e.g. '€10 – 20'), _EventCurrencySymbol, _EventCurrencyPosition, _EventURL, _EventShowMap and
//   _EventShowMapLink ('1' or ''), _EventHideFromUpcoming ('yes'), _tribe_featured ('1'),
//   _thumbnail_id (the featured image: an `attachment` item of the file, whose attachmentUrl is the
//   image's URL), _EventOrigin ('events-calendar'). TEC's sticky is the post's menuOrder -1, not
//   `sticky` (WordPress's sticky posts, for type `post` only). TEC's source also names
//   _EventCurrencyCode, _EventCostDescription, _EventDateTimeSeparator, _EventTimeRangeSeparator,
//   _tribe_events_status(_reason) (written by its editor, not seen in these exports) and the
//   deprecated _EventOrganizerID_Order.
// - tribe_venue: _VenueAddress, _VenueCity, _VenueCountry, _VenueState, _VenueProvince,
//   _VenueStateProvince (the state or province shown), _VenueZip, _VenuePhone, _VenueURL,
//   _VenueDescription (a tag-stripped copy of the content), _VenueShowMap, _VenueShowMapLink,
//   _EventShowMap, _EventShowMapLink ('1' or ''), _VenueOrigin, _Venuepost_date and
//   _Venuepost_date_gmt (''). _VenueLat and _VenueLng are registered (wp/v2 shows them) but absent from these exports.
// - tribe_organizer: _OrganizerEmail, _OrganizerPhone, _OrganizerWebsite, _OrganizerDescription (a
//   tag-stripped copy of the content), _OrganizerOrigin, _Organizerpost_date and
//   _Organizerpost_date_gmt (''), _Organizerpost_status ('publish').
// - all three: _tribe_modified_fields, the only serialized PHP value (an array of field name →
//   Unix time, `a:13:{s:16:"tribe_events_cat";i:1795731881;…}`): bookkeeping, nothing to import.
//   Trashed records: status 'trash', slug '<slug>__trashed', _wp_desired_post_slug (the slug
//   before), _wp_trash_meta_status (the status before), _wp_trash_meta_time, and on events
//   _tribe_ignored_event_previous_status. Attachments carry _wp_attached_file and a serialized
//   _wp_attachment_metadata.
// - No key repeats except _EventOrganizerID. Drafts never published have dateGmt AND modifiedGmt
//   '0000-00-00 00:00:00'. Term names and descriptions are as WordPress stores them, HTML-escaped
//   ('Parent &amp; "Cat"'), as wp/v2's context=edit shows them; texts may hold NUL and control
//   characters, kept as they are.

/** The channel's header: which site the file comes from. */
export interface WxrSite {
  kind: 'site';
  title: string;
  /** `<link>`, the site's home URL. */
  link: string;
  /** `wp:base_site_url` and `wp:base_blog_url`. */
  baseSiteUrl: string;
  baseBlogUrl: string;
  /** `<language>`, e.g. `en-US`. */
  language: string;
  /** `wp:wxr_version`, e.g. `1.2`. */
  wxrVersion: string;
}

/** `<wp:author>`: a user who wrote something in the file (WXR carries no roles or passwords). */
export interface WxrAuthor {
  kind: 'author';
  id: number;
  /** The id as written, when its number differs from it (too long, or no number: the id is then NaN). */
  idText?: string;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
}

/**
 * `<wp:category>`, `<wp:tag>` and `<wp:term>` alike: a term of a taxonomy (`category`,
 * `post_tag`, `tribe_events_cat`, …). WXR names a term's parent by its slug.
 */
export interface WxrTerm {
  kind: 'term';
  id: number;
  /** The id as written, when its number differs from it (too long, or no number: the id is then NaN). */
  idText?: string;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  /** '' for a top-level term. */
  parentSlug: string;
}

/** `<item>`: a post of any type (`tribe_events`, `tribe_venue`, `tribe_organizer`, `attachment`, `post`, …). */
export interface WxrPost {
  kind: 'post';
  id: number;
  /** The id as written, when its number differs from it (too long, or no number: the id is then NaN). */
  idText?: string;
  type: string;
  title: string;
  link: string;
  guid: string;
  /** `dc:creator`: the author's login. */
  creator: string;
  /** `content:encoded` and `excerpt:encoded`, raw. */
  content: string;
  excerpt: string;
  /** `wp:post_date` etc., `YYYY-MM-DD HH:MM:SS` (the GMT ones `0000-00-00 00:00:00` for drafts never saved with one). */
  date: string;
  dateGmt: string;
  modified: string;
  modifiedGmt: string;
  slug: string;
  status: string;
  parent: number;
  menuOrder: number;
  password: string;
  sticky: boolean;
  /** `wp:attachment_url`, attachments only. */
  attachmentUrl?: string;
  /** `<category domain="…" nicename="…">name</category>`, in file order. */
  terms: { taxonomy: string; slug: string; name: string }[];
  /** `wp:postmeta`, in file order; a key may repeat (e.g. one `_EventOrganizerID` per organizer). */
  meta: [key: string, value: string][];
}

export type WxrEntry = WxrSite | WxrAuthor | WxrTerm | WxrPost;
