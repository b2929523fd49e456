// What a WordPress export file (WXR, Tools → Export) holds, entry by entry, as the streaming reader
// yields it: text as stored (CDATA unwrapped, entities decoded), nothing rendered or interpreted.
// The importer maps these entries onto the site's records.

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
