// Synthetic WordPress export files, written the way wp-admin/includes/export.php writes them (every
// text in CDATA, `]]>` split across two sections), produced a chunk at a time so that a file of
// any size never sits whole in memory: the reader's memory test and `npm run bench:wxr` stream them.

/** WordPress's wxr_cdata(). */
export const cdata = (text: string) => `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

const HEAD = `<?xml version="1.0" encoding="UTF-8" ?>
<!-- generator="WordPress/6.8.12" created="2026-11-27 01:35" -->
<rss version="2.0"
\txmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
\txmlns:content="http://purl.org/rss/1.0/modules/content/"
\txmlns:wfw="http://wellformedweb.org/CommentAPI/"
\txmlns:dc="http://purl.org/dc/elements/1.1/"
\txmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
\t<title>Synthetic &amp; Co</title>
\t<link>https://example.test</link>
\t<description></description>
\t<language>en-US</language>
\t<wp:wxr_version>1.2</wp:wxr_version>
\t<wp:base_site_url>https://example.test</wp:base_site_url>
\t<wp:base_blog_url>https://example.test</wp:base_blog_url>
\t<wp:author><wp:author_id>1</wp:author_id><wp:author_login>${cdata('admin')}</wp:author_login><wp:author_email>${cdata('admin@example.test')}</wp:author_email><wp:author_display_name>${cdata('Admin')}</wp:author_display_name><wp:author_first_name>${cdata('')}</wp:author_first_name><wp:author_last_name>${cdata('')}</wp:author_last_name></wp:author>
\t<wp:term><wp:term_id>2</wp:term_id><wp:term_taxonomy>${cdata('tribe_events_cat')}</wp:term_taxonomy><wp:term_slug>${cdata('music')}</wp:term_slug><wp:term_parent>${cdata('')}</wp:term_parent><wp:term_name>${cdata('Music')}</wp:term_name></wp:term>
`;
const TAIL = '</channel>\n</rss>\n';

/** One event `<item>` of about `size` characters (its content padded), with TEC's meta. */
export function eventItem(id: number, size = 2000): string {
  const body = `<p>Event ${id}: ąčę “quotes” & <b>bold</b> ]]> end</p>\n`;
  const content = body.repeat(Math.max(1, Math.ceil((size - 1500) / body.length)));
  const meta = (key: string, value: string) =>
    `\t\t<wp:postmeta>\n\t\t<wp:meta_key>${cdata(key)}</wp:meta_key>\n\t\t<wp:meta_value>${cdata(value)}</wp:meta_value>\n\t\t</wp:postmeta>\n`;
  return `\t<item>
\t\t<title>${cdata(`Event ${id} & friends`)}</title>
\t\t<link>https://example.test/event/event-${id}/?a=1&#038;b=2</link>
\t\t<pubDate>Fri, 27 Nov 2026 01:35:33 +0000</pubDate>
\t\t<dc:creator>${cdata('admin')}</dc:creator>
\t\t<guid isPermaLink="false">https://example.test/?post_type=tribe_events&#038;p=${id}</guid>
\t\t<description></description>
\t\t<content:encoded>${cdata(content)}</content:encoded>
\t\t<excerpt:encoded>${cdata('')}</excerpt:encoded>
\t\t<wp:post_id>${id}</wp:post_id>
\t\t<wp:post_date>${cdata('2026-11-27 01:35:33')}</wp:post_date>
\t\t<wp:post_date_gmt>${cdata('2026-11-27 01:35:33')}</wp:post_date_gmt>
\t\t<wp:post_modified>${cdata('2026-11-27 01:35:33')}</wp:post_modified>
\t\t<wp:post_modified_gmt>${cdata('2026-11-27 01:35:33')}</wp:post_modified_gmt>
\t\t<wp:comment_status>${cdata('closed')}</wp:comment_status>
\t\t<wp:ping_status>${cdata('closed')}</wp:ping_status>
\t\t<wp:post_name>${cdata(`event-${id}`)}</wp:post_name>
\t\t<wp:status>${cdata('publish')}</wp:status>
\t\t<wp:post_parent>0</wp:post_parent>
\t\t<wp:menu_order>0</wp:menu_order>
\t\t<wp:post_type>${cdata('tribe_events')}</wp:post_type>
\t\t<wp:post_password>${cdata('')}</wp:post_password>
\t\t<wp:is_sticky>0</wp:is_sticky>
\t\t<category domain="tribe_events_cat" nicename="music">${cdata('Music')}</category>
${meta('_EventStartDate', '2027-03-27 19:00:00')}${meta('_EventEndDate', '2027-03-27 22:00:00')}${meta('_EventTimezone', 'Europe/Vilnius')}${meta('_EventOrganizerID', '7')}${meta('_EventOrganizerID', '8')}\t</item>
`;
}

/**
 * A whole export of about `bytes` (UTF-8), or of `maxItems` events, as chunks of about `chunkBytes`,
 * generated as they are read; `items` counts the events it holds once it is read through.
 */
export function syntheticExport(
  bytes: number,
  chunkBytes = 64 * 1024,
  itemSize = 2000,
  maxItems = Number.POSITIVE_INFINITY,
): { chunks: AsyncIterable<Uint8Array>; items: () => number } {
  let items = 0;
  async function* chunks(): AsyncIterable<Uint8Array> {
    const encoder = new TextEncoder();
    let pending = HEAD;
    let written = 0;
    let done = false;
    while (!done) {
      while (pending.length < chunkBytes && !done) {
        if (written + pending.length >= bytes || items >= maxItems) {
          pending += TAIL;
          done = true;
        } else pending += eventItem(1000 + items++, itemSize);
      }
      const out = encoder.encode(pending);
      written += out.length;
      pending = '';
      yield out;
    }
  }
  return { chunks: chunks(), items: () => items };
}

/** One `<item>` of any post type, as export.php writes it; `creator` '' is a post without an author. */
export function wxrItem(p: {
  /** A number, or any text a file may hold where the id belongs. */
  id: number | string;
  type: string;
  title: string;
  slug: string;
  creator?: string;
  content?: string;
  status?: string;
  date?: string;
  /** TEC keeps an event's sticky flag as its menu order -1. */
  menuOrder?: number;
  terms?: { taxonomy: string; slug: string; name: string }[];
  meta?: [string, string][];
  parent?: number;
}): string {
  const date = p.date ?? '2026-11-27 01:35:33';
  const meta = (p.meta ?? [])
    .map(([k, v]) => `\t\t<wp:postmeta>\n\t\t\t<wp:meta_key>${cdata(k)}</wp:meta_key>\n\t\t\t<wp:meta_value>${cdata(v)}</wp:meta_value>\n\t\t</wp:postmeta>\n`)
    .join('');
  const terms = (p.terms ?? []).map((t) => `\t\t<category domain="${t.taxonomy}" nicename="${t.slug}">${cdata(t.name)}</category>\n`).join('');
  return `\t<item>
\t\t<title>${cdata(p.title)}</title>
\t\t<link>https://example.test/?p=${p.id}</link>
\t\t<pubDate>Fri, 27 Nov 2026 01:35:33 +0000</pubDate>
\t\t<dc:creator>${cdata(p.creator ?? '')}</dc:creator>
\t\t<guid isPermaLink="false">https://example.test/?p=${p.id}</guid>
\t\t<description></description>
\t\t<content:encoded>${cdata(p.content ?? '')}</content:encoded>
\t\t<excerpt:encoded>${cdata('')}</excerpt:encoded>
\t\t<wp:post_id>${p.id}</wp:post_id>
\t\t<wp:post_date>${cdata(date)}</wp:post_date>
\t\t<wp:post_date_gmt>${cdata(date)}</wp:post_date_gmt>
\t\t<wp:post_modified>${cdata(date)}</wp:post_modified>
\t\t<wp:post_modified_gmt>${cdata(date)}</wp:post_modified_gmt>
\t\t<wp:comment_status>${cdata('closed')}</wp:comment_status>
\t\t<wp:ping_status>${cdata('closed')}</wp:ping_status>
\t\t<wp:post_name>${cdata(p.slug)}</wp:post_name>
\t\t<wp:status>${cdata(p.status ?? 'publish')}</wp:status>
\t\t<wp:post_parent>${p.parent ?? 0}</wp:post_parent>
\t\t<wp:menu_order>${p.menuOrder ?? 0}</wp:menu_order>
\t\t<wp:post_type>${cdata(p.type)}</wp:post_type>
\t\t<wp:post_password>${cdata('')}</wp:post_password>
\t\t<wp:is_sticky>0</wp:is_sticky>
${terms}${meta}\t</item>
`;
}

/** A whole export of the given `<item>`s: the header, one author (admin, id 1), no term definitions. */
export const wxrDocument = (items: string[]): string => `${HEAD.replace(/\t<wp:term>.*<\/wp:term>\n/, '')}${items.join('')}${TAIL}`;
