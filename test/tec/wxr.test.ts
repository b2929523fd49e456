// The live TEC's own export file (wp-admin/export.php), read with readWxr: records created through
// TEC's REST API with awkward text and every kind of link are all in it, with the stored title,
// content, excerpt, status, slug, dates, password, author, terms and TEC meta that WordPress's REST
// API (`wp/v2/<type>/<id>?context=edit`) reports for them. `UPDATE_WXR_FIXTURE=1` also writes those
// records, trimmed out of the export, to test/fixtures/wxr/tec-export.xml for the unit tests.
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { WxrAuthor, WxrEntry, WxrPost, WxrTerm } from '#lib/import/wxr-types.js';
import { liveTec, TEC } from '../support/live-tec.js';
import { tecExport } from '../support/tec-export.js';

const run = Date.now().toString(36);
const MARK = `wxr${run}`;

// A 1×1 PNG, for a featured image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

type Json = Record<string, unknown> & { id: number };
type WpMeta = Record<string, string | boolean | number | unknown[]>;
interface WpPost extends Json {
  title: { raw: string };
  content: { raw: string };
  excerpt?: { raw: string };
  status: string;
  slug: string;
  date: string;
  date_gmt: string | null;
  modified: string;
  modified_gmt: string;
  password: string;
  author: number;
  featured_media?: number;
  meta: WpMeta;
  tags?: number[];
  tribe_events_cat?: number[];
}

describe('the live TEC’s WordPress export, read with readWxr', () => {
  let auth = '';
  const api = async <T = Json>(method: string, path: string, body?: object | Buffer, headers: Record<string, string> = {}): Promise<T> => {
    const res = await fetch(`${TEC}/wp-json/${path}`, {
      method,
      headers: { authorization: auth, ...(body && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`The live TEC refused ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const tec = (method: string, path: string, body?: object) => api(method, `tribe/events/v1${path}`, body);

  const ids = { events: {} as Record<string, number>, venue: 0, organizers: [] as number[], parent: 0, child: 0, tag: 0, image: 0 };
  const entries = new Map<string, WxrEntry>();
  const key = (e: WxrEntry) => (e.kind === 'post' ? `post:${e.id}` : e.kind === 'term' ? `term:${e.id}` : e.kind === 'author' ? `author:${e.login}` : 'site');
  const post = (id: number) => entries.get(`post:${id}`) as WxrPost | undefined;
  const term = (id: number) => entries.get(`term:${id}`) as WxrTerm | undefined;

  beforeAll(async () => {
    auth = (await liveTec()).auth;
    ids.image = (await api('POST', 'wp/v2/media', PNG, { 'content-type': 'image/png', 'content-disposition': `attachment; filename="poster-${MARK}.png"` })).id;
    ids.parent = (await tec('POST', '/categories', { name: `Parent & "Cat" ${MARK}`, description: '<b>Top</b> level ]]> & more' })).id;
    ids.child = (await tec('POST', '/categories', { name: `Child ž ${MARK}`, parent: ids.parent, description: 'Nested' })).id;
    ids.tag = (await tec('POST', '/tags', { name: `Tag <&> ${MARK}`, description: 'Tagged & ready' })).id;
    ids.venue = (
      await tec('POST', '/venues', {
        venue: `Venue ]]> & <Hall> ${MARK}`,
        description: '<p>Venue ]]> description ąčę</p>',
        address: '1 "Loop" & Road',
        city: 'Šiauliai',
        country: 'Lithuania',
        province: 'Šiaulių',
        zip: 'LT-76001',
        phone: '+370 600 00000',
        website: 'https://venue.example/?a=1&b=2',
        // TEC's venue route takes these flags as strings.
        show_map: 'false',
        show_map_link: 'true',
      })
    ).id;
    for (const n of [1, 2]) {
      ids.organizers.push(
        (
          await tec('POST', '/organizers', {
            organizer: `Organizer ${n} “quoted” ${MARK}`,
            description: `<p>Org ${n} ]]> text</p>`,
            email: `org${n}@example.com`,
            phone: '555-0100',
            website: `https://org${n}.example/`,
          })
        ).id,
      );
    }
    ids.events.gala = (
      await tec('POST', '/events', {
        title: `Gala ]]> & <b>Night</b> "q" 🎷 ${MARK}`,
        description: '<p>First ]]> para &amp; <!-- a comment --></p>\n<p>Second ąčę 😀</p>',
        excerpt: 'Short & <i>sweet</i>',
        start_date: '2027-05-10 19:00:00',
        end_date: '2027-05-11 01:30:00',
        timezone: 'America/New_York',
        venue: ids.venue,
        organizer: ids.organizers,
        categories: [ids.child],
        tags: [ids.tag],
        cost: '€10 – 20',
        website: 'https://gala.example/?x=1&y=2',
        featured: true,
        sticky: true,
        hide_from_listings: true,
        show_map: true,
        show_map_link: false,
        image: String(ids.image),
      })
    ).id;
    ids.events.allDay = (
      await tec('POST', '/events', {
        title: `All day draft ${MARK}`,
        status: 'draft',
        all_day: true,
        start_date: '2027-07-01',
        end_date: '2027-07-03',
        categories: [ids.parent],
      })
    ).id;
    ids.events.private = (
      await tec('POST', '/events', {
        title: `Private in Kathmandu ${MARK}`,
        status: 'private',
        start_date: '2027-11-05 10:00:00',
        end_date: '2027-11-05 12:00:00',
        timezone: 'Asia/Kathmandu',
        venue: ids.venue,
      })
    ).id;
    ids.events.trashed = (await tec('POST', '/events', { title: `Trashed ${MARK}`, start_date: '2027-02-10 09:00:00', end_date: '2027-02-10 10:30:00' })).id;
    await tec('DELETE', `/events/${ids.events.trashed}`);

    const mine = new Set([
      `term:${ids.parent}`,
      `term:${ids.child}`,
      `term:${ids.tag}`,
      ...[ids.venue, ids.image, ...ids.organizers, ...Object.values(ids.events)].map((id) => `post:${id}`),
    ]);
    // Only the entries of these records are kept: the export holds everything else on the site too.
    for await (const e of readWxr(await tecExport())) if (e.kind !== 'post' && e.kind !== 'term' ? true : mine.has(key(e))) entries.set(key(e), e);
    if (process.env.UPDATE_WXR_FIXTURE === '1') await writeFixture(mine);
  }, 180_000);

  /** The marked records' blocks of the export, with its header and authors. */
  async function writeFixture(mine: Set<string>): Promise<void> {
    let text = '';
    for await (const chunk of await tecExport()) text += Buffer.from(chunk).toString('utf8');
    const keep = (block: string) => {
      const post = /<wp:post_id>(\d+)<\/wp:post_id>/.exec(block);
      const term = /<wp:term_id>(\d+)<\/wp:term_id>/.exec(block);
      return (post && mine.has(`post:${post[1]}`)) || (term && mine.has(`term:${term[1]}`));
    };
    const trimmed = text.replace(/[ \t]*<(wp:category|wp:tag|wp:term|item)>[\s\S]*?<\/\1>\n?/g, (block) => (keep(block) ? block : ''));
    writeFileSync(new URL('../fixtures/wxr/tec-export.xml', import.meta.url), trimmed.replace(/^\s*\n/gm, ''));
  }

  it('starts with the site header and lists the admin as an author', () => {
    const site = entries.get('site');
    expect(site).toMatchObject({ kind: 'site', link: TEC, baseSiteUrl: TEC, wxrVersion: '1.2' });
    expect((entries.get('author:admin') as WxrAuthor).id).toBeGreaterThan(0);
  });

  it('holds the nested categories and the tag as WordPress stores them', async () => {
    for (const [id, taxonomy] of [
      [ids.parent, 'tribe_events_cat'],
      [ids.child, 'tribe_events_cat'],
      [ids.tag, 'tags'],
    ] as const) {
      const wp = await api<Json & { name: string; slug: string; description: string; parent?: number; taxonomy: string }>('GET', `wp/v2/${taxonomy}/${id}?context=edit`);
      const parentSlug = wp.parent ? (await api<Json & { slug: string }>('GET', `wp/v2/${taxonomy}/${wp.parent}?context=edit`)).slug : '';
      expect(term(id), `term ${id}`).toEqual({ kind: 'term', id, taxonomy: wp.taxonomy, slug: wp.slug, name: wp.name, description: wp.description, parentSlug });
    }
    expect(term(ids.child)!.parentSlug).toBe(term(ids.parent)!.slug);
  });

  /** WordPress's rest_sanitize_boolean, as wp/v2 reads a boolean meta row. */
  const restBoolean = (raw: string) => !['', '0', 'false'].includes(raw.toLowerCase());

  async function expectAsStored(id: number, type: string): Promise<{ wxr: WxrPost; wp: WpPost }> {
    const wp = await api<WpPost>('GET', `wp/v2/${type}/${id}?context=edit`);
    const wxr = post(id);
    expect(wxr, `${type} ${id} in the export`).toBeDefined();
    const sql = (iso: string) => iso.replace('T', ' ');
    const author = await api<Json & { username: string }>('GET', `wp/v2/users/${wp.author}?context=edit`);
    expect(wxr).toMatchObject({
      type,
      title: wp.title.raw,
      content: wp.content.raw,
      excerpt: wp.excerpt?.raw ?? '',
      status: wp.status,
      slug: wp.slug,
      password: wp.password,
      date: sql(wp.date),
      modified: sql(wp.modified),
      creator: author.username,
    });
    // A draft never published has no GMT dates in the table (wp/v2 derives them from the local ones).
    const zero = '0000-00-00 00:00:00';
    if (wxr!.dateGmt !== zero) expect([wxr!.dateGmt, wxr!.modifiedGmt]).toEqual([sql(wp.date_gmt!), sql(wp.modified_gmt)]);
    else expect([wp.status, wxr!.modifiedGmt]).toEqual(['draft', zero]);
    // Every meta field wp/v2 shows, from the export's rows (absent rows are wp/v2's defaults).
    for (const [name, shown] of Object.entries(wp.meta)) {
      const rows = wxr!.meta.filter(([k]) => k === name).map(([, v]) => v);
      if (Array.isArray(shown)) expect(rows.map(Number), name).toEqual(shown);
      else if (typeof shown === 'boolean') expect(rows.length ? restBoolean(rows[0]!) : false, name).toBe(shown);
      else expect(rows[0] ?? '', name).toBe(shown);
    }
    // Terms by slug, as wp/v2 lists them by id.
    for (const [field, taxonomy] of [
      ['tribe_events_cat', 'tribe_events_cat'],
      ['tags', 'post_tag'],
    ] as const) {
      const slugs = await Promise.all((wp[field] ?? []).map(async (t) => (await api<Json & { slug: string }>('GET', `wp/v2/${field}/${t}?context=edit`)).slug));
      expect(
        wxr!.terms
          .filter((t) => t.taxonomy === taxonomy)
          .map((t) => t.slug)
          .sort(),
        `${field} of ${id}`,
      ).toEqual(slugs.sort());
    }
    return { wxr: wxr!, wp };
  }

  it('holds the venue and both organizers as stored, with their TEC meta', async () => {
    const { wxr: venue } = await expectAsStored(ids.venue, 'tribe_venue');
    expect(venue.title).toContain(']]> & <Hall>');
    expect(venue.content).toBe('<p>Venue ]]> description ąčę</p>');
    for (const id of ids.organizers)
      expect((await expectAsStored(id, 'tribe_organizer')).wxr.meta).toContainEqual(['_OrganizerEmail', expect.stringMatching(/^org\d@example\.com$/)]);
  });

  it('holds every event as stored: text, status, dates, terms, venue, one row per organizer, TEC meta', async () => {
    const { wxr: gala, wp } = await expectAsStored(ids.events.gala!, 'tribe_events');
    expect(gala.title).toBe(`Gala ]]> & <b>Night</b> "q" 🎷 ${MARK}`);
    expect(gala.meta.filter(([k]) => k === '_EventOrganizerID').map(([, v]) => Number(v))).toEqual(ids.organizers);
    expect(gala.meta).toContainEqual(['_EventVenueID', String(ids.venue)]);
    expect(gala.meta).toContainEqual(['_EventStartDate', '2027-05-10 19:00:00']);
    expect(gala.meta).toContainEqual(['_EventStartDateUTC', '2027-05-10 23:00:00']);
    expect(gala.meta).toContainEqual(['_EventTimezone', 'America/New_York']);
    // What wp/v2 does not show: featured, sticky (menu_order -1), hidden from listings, the image.
    const shown = await tec('GET', `/events/${ids.events.gala}`);
    expect(shown).toMatchObject({ featured: true, sticky: true, hide_from_listings: true });
    expect(gala.meta).toContainEqual(['_tribe_featured', '1']);
    expect(gala.meta).toContainEqual(['_EventHideFromUpcoming', 'yes']);
    expect(gala.menuOrder).toBe(-1);
    expect(gala.meta).toContainEqual(['_thumbnail_id', String(wp.featured_media)]);
    const media = await api<Json & { source_url: string }>('GET', `wp/v2/media/${wp.featured_media}?context=edit`);
    expect(post(ids.image)).toMatchObject({ type: 'attachment', attachmentUrl: media.source_url });

    const { wxr: allDay } = await expectAsStored(ids.events.allDay!, 'tribe_events');
    // '1' through the REST API; TEC's editor writes 'yes'.
    expect(allDay.meta).toContainEqual(['_EventAllDay', '1']);
    expect(allDay.terms).toEqual([{ taxonomy: 'tribe_events_cat', slug: term(ids.parent)!.slug, name: term(ids.parent)!.name }]);
    expect((await expectAsStored(ids.events.private!, 'tribe_events')).wxr.meta).toContainEqual(['_EventTimezone', 'Asia/Kathmandu']);
    const { wxr: trashed } = await expectAsStored(ids.events.trashed!, 'tribe_events');
    expect(trashed.status).toBe('trash');
    expect(trashed.meta).toContainEqual(['_wp_trash_meta_status', 'publish']);
  });
});
