// Export files as other tools write them, with WordPress's own importer as the oracle: a file a
// script wrote (posts without an author, terms named only on its items, links to a venue and an
// organizer it does not hold, a currency, no map flags, a venue without its state-or-province
// row, an all-day event in a manual offset, an event that has ended) is imported into the live
// TEC with ../shared/tec-live/import-wxr.sh and into a fresh table here, and every record answers
// alike. Then the live site's export of events alone is imported over a table that holds the
// whole site: nothing changes, nothing is reported gone, no link is lost.
import { beforeAll, describe, expect, it } from 'vitest';
import { importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { WxrEntry } from '#lib/import/wxr-types.js';
import { invoke } from '#lib/local/invoke.js';
import { useGateway } from '../support/gateway.js';
import { TEC } from '../support/live-tec.js';
import { tecExport } from '../support/tec-export.js';
import { importIntoTec } from '../support/tec-import-wxr.js';
import { wxrDocument, wxrItem } from '../support/wxr-export.js';
import { importMine, liveSite, now, type LiveSiteClient } from './import-calendar.js';

const run = `odd${Date.now().toString(36)}`;

/** The file's posts: ids far above the live site's, so that WordPress's importer renumbers them. */
const ID = { venue: 990001, organizer: 990002, event: 990003, allDay: 990004, ended: 990005 };
const MISSING = { venue: 999998, organizer: 999999 };

function scriptExport(): string {
  const items = [
    wxrItem({
      id: ID.venue,
      type: 'tribe_venue',
      title: `Script hall ${run}`,
      slug: `script-hall-${run}`,
      meta: [
        ['_VenueCity', 'Fresno'],
        ['_VenueState', 'CA'],
        ['_VenueCountry', 'United States'],
      ],
    }),
    wxrItem({
      id: ID.organizer,
      type: 'tribe_organizer',
      title: `Script org ${run}`,
      slug: `script-org-${run}`,
      meta: [
        ['_OrganizerEmail', 'org@example.org'],
        ['_OrganizerWebsite', 'https://org.example'],
      ],
    }),
    wxrItem({
      id: ID.event,
      type: 'tribe_events',
      title: `Rupee night ${run}`,
      slug: `rupee-night-${run}`,
      content: '<p>Bring cash</p>',
      terms: [
        { taxonomy: 'tribe_events_cat', slug: `cat-${run}`, name: `Cat ${run}` },
        { taxonomy: 'post_tag', slug: `tag-${run}`, name: `Tag ${run}` },
      ],
      meta: [
        ['_EventStartDate', '2027-09-10 19:00:00'],
        ['_EventEndDate', '2027-09-10 22:00:00'],
        ['_EventStartDateUTC', '2027-09-10 19:00:00'],
        ['_EventEndDateUTC', '2027-09-10 22:00:00'],
        ['_EventTimezone', 'UTC+0'],
        ['_EventCost', '500'],
        ['_EventCurrencySymbol', '₹'],
        ['_EventCurrencyCode', 'INR'],
        ['_EventCurrencyPosition', 'postfix'],
        ['_EventVenueID', String(ID.venue)],
        ['_EventOrganizerID', String(ID.organizer)],
        ['_EventOrganizerID', String(MISSING.organizer)],
      ],
    }),
    wxrItem({
      id: ID.allDay,
      type: 'tribe_events',
      title: `Tehran day ${run}`,
      slug: `tehran-day-${run}`,
      content: '<p>All day</p>',
      terms: [{ taxonomy: 'post_tag', slug: `tag-${run}`, name: `Tag ${run}` }],
      meta: [
        ['_EventStartDate', '2027-06-01 00:00:00'],
        ['_EventEndDate', '2027-06-01 23:59:59'],
        ['_EventStartDateUTC', '2027-06-01 00:00:00'],
        ['_EventEndDateUTC', '2027-06-01 23:59:59'],
        ['_EventAllDay', 'yes'],
        ['_EventTimezone', 'UTC+3:30'],
        ['_EventVenueID', String(MISSING.venue)],
      ],
    }),
    wxrItem({
      id: ID.ended,
      type: 'tribe_events',
      title: `Ended ${run}`,
      slug: `ended-${run}`,
      content: '<p>Long ago</p>',
      meta: [
        ['_EventStartDate', '2020-02-03 10:00:00'],
        ['_EventEndDate', '2020-02-03 11:00:00'],
        ['_EventStartDateUTC', '2020-02-03 10:00:00'],
        ['_EventEndDateUTC', '2020-02-03 11:00:00'],
        ['_EventTimezone', 'UTC+0'],
        ['_EventVenueID', String(ID.venue)],
      ],
    }),
  ];
  return wxrDocument(items);
}

async function* entriesOf(text: string): AsyncIterable<WxrEntry> {
  yield* readWxr(
    (async function* () {
      yield text;
    })(),
  );
}

/**
 * An answer without what is expected to differ: ids (mapped to the file's), links, global ids,
 * JSON-LD, the site's origin in links, and the modification time (WordPress's importer sets it to
 * its run's; this API keeps the file's).
 */
function comparable(v: unknown, ids: Map<number, number>, origin: string): unknown {
  if (typeof v === 'string') return v.replaceAll(origin, '<site>');
  if (Array.isArray(v)) return v.map((x) => comparable(x, ids, origin));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (['url', 'rest_url', 'global_id', 'global_id_lineage', 'json_ld', 'modified', 'modified_utc', 'lang', '_links', 'link', 'urls'].includes(k)) continue;
    // Terms new on both sites have ids of their own: compared by slug and name.
    if ((k === 'categories' || k === 'tags') && Array.isArray(x)) out[k] = x.map(({ id: _, term_taxonomy_id: __, ...t }) => comparable(t, ids, origin));
    else if (k === 'id' && typeof x === 'number') out[k] = ids.get(x) ?? x;
    else out[k] = comparable(x, ids, origin);
  }
  return out;
}

describe('an export a script wrote, imported by WordPress and here', () => {
  const gw = useGateway({ tablePrefix: 'tec-odd-export' });
  let site: LiveSiteClient;
  /** The live site's id → the file's. */
  const back = new Map<number, number>();
  let summary: Awaited<ReturnType<typeof importEntries>>;

  beforeAll(async () => {
    site = await liveSite();
    const text = scriptExport();
    for (const [old, fresh] of await importIntoTec(text, 'script.xml')) back.set(fresh, old);
    expect([...back.values()].sort()).toEqual(Object.values(ID).sort());
    // The file lists admin (id 1) as its one author: the posts without one are written as theirs,
    // as WordPress's importer gives them to the user who runs it (the admin).
    summary = await importEntries(entriesOf(text), { send: invoke, token: await gw.token('editor', 'site-import'), defaultAuthor: 1 });
  }, 180_000);

  const fresh = (old: number) => [...back].find(([, o]) => o === old)![0];
  const pair = async (kind: 'events' | 'venues' | 'organizers', old: number) => {
    const theirs = await site.tec('GET', `/tribe/events/v1/${kind}/${fresh(old)}`);
    const ours = await gw.api('GET', `/${kind}/${old}`, { token: 'editor' });
    return {
      theirs: { status: theirs.status, body: comparable(theirs.body, back, TEC) },
      ours: { status: ours.status, body: comparable(ours.body, back, new URL(gw.base).origin) },
    };
  };

  it('imports every post, and reports the links the file does not hold', () => {
    expect(summary.failed).toEqual([]);
    expect(summary.authorless).toEqual({ count: 5, author: 1 });
    expect(summary.unlinked).toEqual([
      { event: ID.event, kind: 'organizer', ref: MISSING.organizer },
      { event: ID.allDay, kind: 'venue', ref: MISSING.venue },
    ]);
  });

  for (const [name, kind, id] of [
    ['the event with a currency, terms named on items and an organizer the file lacks', 'events', ID.event],
    ['the all-day event in a manual offset, whose venue the file lacks', 'events', ID.allDay],
    ['the event that has ended', 'events', ID.ended],
    ['the venue without map flags or state-or-province', 'venues', ID.venue],
    ['the organizer', 'organizers', ID.organizer],
  ] as const)
    it(`answers ${name} as TEC does`, async () => {
      const { theirs, ours } = await pair(kind, id);
      expect(theirs.status).toBe(200);
      expect(ours).toEqual(theirs);
    });
});

describe("the live site's export of events alone, over a calendar that holds the whole site", () => {
  const gw = useGateway({ tablePrefix: 'tec-events-only' });
  let site: LiveSiteClient;
  const mine = new Set<string>();
  const events: number[] = [];
  let summary: Awaited<ReturnType<typeof importEntries>>;
  const before = new Map<number, unknown>();

  beforeAll(async () => {
    site = await liveSite();
    const start = now();
    const cat = await site.make('/tribe/events/v1/categories', { name: `Only cat ${run}` });
    const tag = await site.make('/tribe/events/v1/tags', { name: `Only tag ${run}` });
    const venue = await site.make('/tribe/events/v1/venues', { venue: `Only hall ${run}`, city: 'Vilnius' });
    const org = await site.make('/tribe/events/v1/organizers', { organizer: `Only org ${run}` });
    for (const [i, start_date] of ['2027-04-01 10:00:00', '2020-04-01 10:00:00'].entries()) {
      const e = await site.make('/tribe/events/v1/events', {
        title: `Only event ${run} ${i}`,
        start_date,
        end_date: start_date.replace('10:00', '11:00'),
        venue: venue.id,
        organizer: [org.id],
        categories: [cat.id],
        tags: [tag.id],
      });
      events.push(e.id);
    }
    for (const id of events) mine.add(`event#${id}`);
    for (const [kind, id] of [
      ['venue', venue.id],
      ['organizer', org.id],
      ['category', cat.id],
      ['tag', tag.id],
    ] as const)
      mine.add(`${kind}#${id}`);
    const token = await gw.token('editor', 'site-import');
    await importMine(site, start, token, mine);
    for (const id of events) before.set(id, (await gw.api('GET', `/events/${id}`, { token: 'editor' })).body);
    // Of the export, the test's events only (the site holds every run's).
    async function* theTests(entries: AsyncIterable<WxrEntry>) {
      for await (const e of entries) if (e.kind !== 'post' || events.includes(e.id)) yield e;
    }
    summary = await importEntries(theTests(readWxr(await tecExport('tribe_events'))), { send: invoke, token });
  }, 180_000);

  it('holds no venue, organizer or term definition, and imports its events without a failure or a lost link', () => {
    expect(summary.failed.filter((f) => mine.has(`${f.kind}#${f.id}`))).toEqual([]);
    expect(summary.unlinked.filter((u) => events.includes(u.event))).toEqual([]);
    for (const kind of ['venue', 'organizer', 'category', 'tag'] as const) {
      expect(summary.kinds[kind].missing).toEqual([]);
      expect(summary.kinds[kind].created).toBe(0);
    }
  });

  it('leaves every event as the whole-site import made it, links and terms included', async () => {
    for (const id of events) {
      const after = (await gw.api('GET', `/events/${id}`, { token: 'editor' })).body;
      expect(after).toEqual(before.get(id));
      expect(after).toMatchObject({ categories: [expect.objectContaining({ name: `Only cat ${run}` })], tags: [expect.objectContaining({ name: `Only tag ${run}` })] });
    }
  });
});
