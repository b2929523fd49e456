// The two readers of a site agree record by record. A calendar of hard cases is made on the live
// TEC, then read through its REST APIs (lib/import/live-source.ts) and through its WordPress export
// (lib/import/wxr-source.ts): each record the test made must come out the same. Then an export a
// script wrote, whose posts lack most of TEC's meta rows, is imported into the live TEC by
// WordPress's importer and read back through the REST APIs: each record must be the file's.
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveSite } from '#lib/import/live-source.js';
import type { SiteRecord } from '#lib/import/records.js';
import { wxrRecords } from '#lib/import/wxr-source.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { WxrEntry } from '#lib/import/wxr-types.js';
import { TEC } from '../support/live-tec.js';
import { tecExport } from '../support/tec-export.js';
import { importIntoTec } from '../support/tec-import-wxr.js';
import { wxrDocument, wxrItem } from '../support/wxr-export.js';
import { calendarKeys, corpusTexts, liveSite, makeCalendar, now, type CalendarIds } from './import-calendar.js';

const run = `irec${Date.now().toString(36)}`;

describe('the live site and its export, read, give the same records', () => {
  let ids: CalendarIds;
  const records: Record<'live' | 'wxr', Map<string, SiteRecord>> = { live: new Map(), wxr: new Map() };

  beforeAll(async () => {
    const site = await liveSite();
    const start = now();
    ids = await makeCalendar(site, run, { titles: corpusTexts('title', 8), descriptions: corpusTexts('description', 8) });
    const mine = calendarKeys(ids);
    const keep = (into: Map<string, SiteRecord>, list: SiteRecord[]) => {
      for (const r of list) if (mine.has(`${r.kind}#${r.id}`)) into.set(`${r.kind}#${r.id}`, r);
    };
    const live = new LiveSite({ url: TEC, user: site.login, appPassword: site.password, since: start });
    await live.check();
    for (const list of [await live.terms(), await live.posts('venue'), await live.posts('organizer'), await live.posts('event')]) keep(records.live, list);
    const posts = new Set([...ids.events, ...ids.venues, ...ids.organizers]);
    async function* theTestsPosts(entries: AsyncIterable<WxrEntry>) {
      for await (const e of entries) if (e.kind !== 'post' || e.type === 'attachment' || posts.has(e.id)) yield e;
    }
    keep(records.wxr, await wxrRecords(theTestsPosts(readWxr(await tecExport()))));
  }, 240_000);

  it('reads every record the test made both ways', () => {
    // The trashed event is in the export and the site's lists alike; so is every other.
    const expected = [...calendarKeys(ids)].sort();
    expect([...records.live.keys()].sort()).toEqual(expected);
    expect([...records.wxr.keys()].sort()).toEqual(expected);
  });

  it('maps each record alike, field by field', () => {
    // The trashed event too: TEC refuses it by id, and its list with status=trash shows it.
    expect([...records.live.values()].some((r) => r.kind === 'event' && r.status === 'trash')).toBe(true);
    for (const [key, live] of records.live) expect.soft({ key, ...records.wxr.get(key)! }).toEqual({ key, ...live });
  });
});

/** The file's posts: ids far above the live site's, so that WordPress's importer renumbers them. */
const ID = { venue: 980001, organizer: 980002, bare: 980003, full: 980004 };

/** Posts with few of TEC's rows, as a script or an older TEC writes them. */
function sparseExport(date: string): string {
  const dates = (day: string): [string, string][] => [
    ['_EventStartDate', `${day} 19:00:00`],
    ['_EventEndDate', `${day} 21:00:00`],
    ['_EventStartDateUTC', `${day} 19:00:00`],
    ['_EventEndDateUTC', `${day} 21:00:00`],
    ['_EventTimezone', 'UTC+0'],
  ];
  return wxrDocument([
    wxrItem({ id: ID.venue, type: 'tribe_venue', title: `Bare hall ${run}`, slug: `bare-hall-${run}`, creator: 'admin', date, meta: [['_VenueCity', 'Fresno']] }),
    wxrItem({ id: ID.organizer, type: 'tribe_organizer', title: `Bare org ${run}`, slug: `bare-org-${run}`, creator: 'admin', date }),
    // No website, map flags, zone abbreviation, featured or hidden rows.
    wxrItem({
      id: ID.bare,
      type: 'tribe_events',
      title: `Bare night ${run}`,
      slug: `bare-night-${run}`,
      creator: 'admin',
      date,
      meta: [...dates('2027-09-10'), ['_EventVenueID', String(ID.venue)], ['_EventOrganizerID', String(ID.organizer)]],
    }),
    // Every row written, the flags the other way round from their defaults, and sticky.
    wxrItem({
      id: ID.full,
      type: 'tribe_events',
      title: `Full night ${run}`,
      slug: `full-night-${run}`,
      creator: 'admin',
      date,
      menuOrder: -1,
      meta: [
        ...dates('2027-09-11'),
        ['_EventTimezoneAbbr', 'UTC+0'],
        ['_EventURL', ''],
        ['_EventShowMap', ''],
        ['_EventShowMapLink', '0'],
        ['_tribe_featured', '1'],
        ['_EventHideFromUpcoming', 'yes'],
        ['_EventCost', '500'],
        ['_EventCurrencySymbol', '₹'],
        ['_EventCurrencyCode', 'INR'],
        ['_EventCurrencyPosition', 'postfix'],
      ],
    }),
  ]);
}

/** A record's mapped fields, its links named by the file's ids. */
function mapped(r: SiteRecord | undefined, fileId: (id: number) => number): unknown {
  if (!r || !('fields' in r)) return r;
  const f = { ...r.fields } as Record<string, unknown>;
  for (const link of ['venue', 'organizer'] as const) if (Array.isArray(f[link])) f[link] = (f[link] as number[]).map(fileId);
  return { status: r.status, password: r.password, utc: 'utc' in r ? r.utc : undefined, fields: f };
}

describe('an export with few meta rows, imported by WordPress, reads back as the file', () => {
  const pairs: { key: string; file: unknown; site: unknown }[] = [];

  beforeAll(async () => {
    const start = now();
    // Dated now, so that a read of what changed since the test's start finds them (WordPress's importer keeps the date).
    const text = sparseExport(start.slice(0, 19).replace('T', ' '));
    const fresh = await importIntoTec(text, 'sparse.xml');
    const site = await liveSite();
    const back = new Map([...fresh].map(([o, n]) => [n, o]));
    const fileId = (id: number) => back.get(id) ?? id;
    const live = new LiveSite({ url: TEC, user: site.login, appPassword: site.password, since: start });
    await live.check();
    const read = [...(await live.posts('venue')), ...(await live.posts('organizer')), ...(await live.posts('event'))];
    const file = await wxrRecords(
      readWxr(
        (async function* () {
          yield text;
        })(),
      ),
    );
    for (const id of Object.values(ID)) {
      const ofFile = file.find((r) => r.id === id);
      const onSite = read.find((r) => r.id === fresh.get(id));
      pairs.push({ key: `${ofFile?.kind}#${id}`, file: mapped(ofFile, fileId), site: mapped(onSite, fileId) });
    }
  }, 180_000);

  it('finds every post of the file on the site', () => {
    for (const p of pairs) expect(p.site, p.key).toBeDefined();
  });

  it('maps each record as the file holds it', () => {
    for (const { key, file, site } of pairs) expect.soft({ key, ...(site as object) }).toEqual({ key, ...(file as object) });
  });
});
