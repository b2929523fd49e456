// Export files as WordPress and real tools write them, imported on DynamoDB Local: posts without
// an author, an export of events alone into a calendar that already holds their venues and
// terms (links to records the file lacks are kept when they are here, else left out and
// reported), terms named only on items, and TEC meta this API shows as the site stored it.
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { importEntries } from '#lib/import/run.js';
import { emptyWxrPost } from '#lib/import/wxr-reader.js';
import type { WxrEntry, WxrPost } from '#lib/import/wxr-types.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('import-kinds');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

const item = (p: Partial<WxrPost> & Pick<WxrPost, 'id' | 'type' | 'title' | 'slug'>): WxrPost => ({
  ...emptyWxrPost(),
  creator: 'ana',
  date: '2026-01-02 10:00:00',
  dateGmt: '2026-01-02 10:00:00',
  modified: '2026-02-03 11:00:00',
  modifiedGmt: '2026-02-03 11:00:00',
  status: 'publish',
  ...p,
});
const event = (id: number, slug: string, meta: [string, string][], terms: WxrPost['terms'] = []) =>
  item({
    id,
    type: 'tribe_events',
    title: `Event ${slug}`,
    slug,
    terms,
    // The first row of a key counts: the given rows before the defaults.
    meta: [...meta, ['_EventStartDate', '2027-06-01 10:00:00'], ['_EventEndDate', '2027-06-01 12:00:00'], ['_EventTimezone', 'UTC+0']],
  });

async function* file(list: WxrEntry[]) {
  yield { kind: 'site', title: 'Site', link: 'https://site.example', baseSiteUrl: '', baseBlogUrl: '', language: 'en-US', wxrVersion: '1.2' } satisfies WxrEntry;
  yield* list;
}
const ana: WxrEntry = { kind: 'author', id: 3, login: 'ana', email: 'ana@example.org', displayName: 'Ana', firstName: '', lastName: '' };
const get = async (path: string) => (await invoke('GET', 'en', path, { token, query: { context: 'edit' } })).body;

describe('a whole-site export whose posts have no author', () => {
  it('imports every record, as the author the owner names', async () => {
    const s = await importEntries(
      file([
        ana,
        { kind: 'term', id: 40, taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz', description: '', parentSlug: '' },
        item({ id: 100, type: 'tribe_venue', title: 'Hall', slug: 'hall', creator: '', meta: [['_VenueCity', 'Vilnius']] }),
        item({ id: 101, type: 'tribe_organizer', title: 'Org', slug: 'org', creator: 'someone-not-listed' }),
        event(
          102,
          'first',
          [
            ['_EventVenueID', '100'],
            ['_EventOrganizerID', '101'],
          ],
          [{ taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz' }],
        ),
      ]),
      { send: invoke, token, defaultAuthor: 3 },
    );
    expect(s.failed).toEqual([]);
    expect(s.authorless).toEqual({ count: 2, author: 3 });
    expect(await get('/venues/100')).toMatchObject({ id: 100, author: '3', city: 'Vilnius', show_map: true, show_map_link: true });
    expect(await get('/organizers/101')).toMatchObject({ id: 101, author: '3' });
    expect(await get('/events/102')).toMatchObject({ author: '3', venue: { id: 100 }, organizer: [{ id: 101 }], categories: [{ id: 40, slug: 'jazz' }] });
  });
});

describe('an export of events alone, into the calendar that holds the rest', () => {
  let s: Awaited<ReturnType<typeof importEntries>>;
  it('reports, on a dry run, the tag it would make as a link kept, not one left out', async () => {
    const dry = await importEntries(file([ana, event(130, 'dry', [], [{ taxonomy: 'post_tag', slug: 'dry-run-tag', name: 'Dry' }])]), { send: invoke, token, dryRun: true });
    expect(dry.kinds.tag.created).toBe(1);
    expect(dry.unlinked).toEqual([]);
    expect((await invoke('GET', 'en', '/events/130', { token })).status).toBe(404);
  });

  beforeAll(async () => {
    s = await importEntries(
      file([
        ana,
        // Venue 100, organizer 101 and category "jazz" are here; venue 999 and organizer 998 nowhere.
        event(
          110,
          'kept-links',
          [
            ['_EventVenueID', '100'],
            ['_EventOrganizerID', '101'],
            ['_EventOrganizerID', '998'],
          ],
          [
            { taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz' },
            { taxonomy: 'post_tag', slug: 'open-air', name: 'Open &amp; air' },
          ],
        ),
        event(111, 'lost-venue', [['_EventVenueID', '999']], [{ taxonomy: 'post_tag', slug: 'open-air', name: 'Open &amp; air' }]),
        event(112, 'rupees', [
          ['_EventCost', '500'],
          ['_EventCurrencySymbol', '₹'],
          ['_EventCurrencyCode', 'INR'],
          ['_EventCurrencyPosition', 'postfix'],
        ]),
      ]),
      { send: invoke, token },
    );
  });

  it('imports every event, keeps the links this calendar holds and reports the rest', async () => {
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(3);
    expect(s.unlinked).toEqual([
      { event: 110, kind: 'organizer', ref: 998 },
      { event: 111, kind: 'venue', ref: 999 },
    ]);
    const kept = await get('/events/110');
    expect(kept).toMatchObject({ venue: { id: 100 }, organizer: [{ id: 101 }], categories: [{ id: 40, slug: 'jazz' }] });
    expect((await get('/events/111')).venue).toEqual([]);
  });

  it('makes a tag the file names only on its items once, with its slug and name, and links both events', async () => {
    expect(s.kinds.tag.created).toBe(1);
    const a = (await get('/events/110')).tags as { id: number; slug: string; name: string }[];
    const b = (await get('/events/111')).tags as { id: number }[];
    expect(a).toEqual([expect.objectContaining({ slug: 'open-air', name: 'Open &amp; air' })]);
    expect(b.map((t) => t.id)).toEqual([a[0]!.id]);
  });

  it('judges gone only the kinds the file holds: the venues, organizers and terms stay unreported', () => {
    for (const kind of ['venue', 'organizer', 'category', 'tag'] as const) expect(s.kinds[kind].missing).toEqual([]);
    expect(s.kinds.event.missing).toEqual([102]);
  });

  it("shows an event's cost in the currency the site stored", async () => {
    const e = await get('/events/112');
    expect(e.cost_details).toEqual({ currency_symbol: '₹', currency_code: 'INR', currency_position: 'postfix', values: ['500'] });
    expect(e.cost).toBe('500₹');
    expect(e.json_ld?.offers?.priceCurrency ?? 'INR').toBe('INR');
  });

  it('changes nothing of the records it does not hold', async () => {
    expect(await get('/venues/100')).toMatchObject({ venue: 'Hall', city: 'Vilnius' });
    expect(await get('/events/102')).toMatchObject({ categories: [{ id: 40 }], venue: { id: 100 } });
  });
});

describe('TEC meta kept as the site stored it', () => {
  it('keeps the UTC times of an all-day event in a manual offset, and an empty state-or-province', async () => {
    const s = await importEntries(
      file([
        ana,
        item({
          id: 120,
          type: 'tribe_venue',
          title: 'US hall',
          slug: 'us-hall',
          meta: [
            ['_VenueState', 'CA'],
            ['_VenueCountry', 'United States'],
          ],
        }),
        event(121, 'all-day', [
          ['_EventStartDate', '2027-06-01 00:00:00'],
          ['_EventEndDate', '2027-06-01 23:59:59'],
          ['_EventStartDateUTC', '2027-06-01 00:00:00'],
          ['_EventEndDateUTC', '2027-06-01 23:59:59'],
          ['_EventAllDay', 'yes'],
          ['_EventTimezone', 'UTC+3:30'],
        ]),
      ]),
      { send: invoke, token },
    );
    expect(s.failed).toEqual([]);
    expect(await get('/events/121')).toMatchObject({ all_day: true, utc_start_date: '2027-06-01 00:00:00', utc_end_date: '2027-06-01 23:59:59' });
    const venue = await get('/venues/120');
    expect(venue.state).toBe('CA');
    expect(venue).not.toHaveProperty('stateprovince');
  });
});
