// An export file holding ids WordPress cannot hold (0, negative, above 2^53 − 1, no number, links
// to such ids) and slugs it would not store (line ends, control characters, spaces): imported on
// DynamoDB Local, each such record is refused alone with its reason, the rest of the file is
// written, and every slug stored is one WordPress would store.
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { formatSummary, importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { ImportSummary } from '#lib/import/writer.js';
import { cdata, wxrDocument, wxrItem } from '../support/wxr-export.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('import-ids');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

const when: [string, string][] = [
  ['_EventStartDate', '2027-06-01 10:00:00'],
  ['_EventEndDate', '2027-06-01 12:00:00'],
  ['_EventTimezone', 'UTC+0'],
];
const event = (id: number | string, slug: string, meta: [string, string][] = [], title = `Event ${id}`) =>
  wxrItem({ id, type: 'tribe_events', title, slug, creator: 'admin', meta: [...meta, ...when] });
const term = (id: string, slug: string, name: string) =>
  `\t<wp:term><wp:term_id>${id}</wp:term_id><wp:term_taxonomy>${cdata('post_tag')}</wp:term_taxonomy><wp:term_slug>${cdata(slug)}</wp:term_slug><wp:term_parent>${cdata('')}</wp:term_parent><wp:term_name>${cdata(name)}</wp:term_name></wp:term>\n`;

const FILE = wxrDocument([
  term('-3', 'minus', 'Minus'),
  term('50', 'Late\r\nNight', 'Late night'),
  term('51', '\u0000\u0007', 'Only Controls'),
  event(0, 'zero'),
  event(-5, 'minus-five'),
  event('9007199254740993', 'too-big'),
  event('12a', 'not-a-number'),
  event(210, 'links-bad-venue', [['_EventVenueID', '-5']]),
  event(211, 'links-huge-organizer', [['_EventOrganizerID', '9007199254740993']]),
  wxrItem({ id: 300, type: 'tribe_venue', title: 'Hall', slug: 'Big Hall\t\r\n"One"', creator: 'admin' }),
  event(200, 'bad\r\nslug\u0001'),
  event(201, '\r\n\t', [], 'Title Gives The Slug'),
  wxrItem({
    id: 202,
    type: 'tribe_events',
    title: 'Tagged',
    slug: 'tagged',
    creator: 'admin',
    terms: [
      { taxonomy: 'post_tag', slug: 'minus', name: 'Minus' },
      // An attribute keeps a line end only written as a reference.
      { taxonomy: 'post_tag', slug: 'Late&#13;&#10;Night', name: 'Late night' },
    ],
    meta: [['_EventVenueID', '300'], ...when],
  }),
]);

async function* chunks() {
  yield FILE;
}
const get = (path: string) => invoke('GET', 'en', path, { token, query: { context: 'edit' } });

describe('an export with ids and slugs WordPress cannot hold', () => {
  let s: ImportSummary;
  it('refuses each such record alone, with its id as written and the reason', async () => {
    s = await importEntries(readWxr(chunks()), { send: invoke, token });
    const failed = s.failed.map((f) => `${f.kind} ${f.id}: ${f.reason}`).sort();
    expect(failed).toEqual([
      "event -5: not imported: id -5 is not a positive whole number: WordPress's ids start at 1",
      "event 0: not imported: id 0 is not a positive whole number: WordPress's ids start at 1",
      'event 12a: not imported: id "12a" is not a whole number',
      "event 210: not imported: links venue -5: id -5 is not a positive whole number: WordPress's ids start at 1",
      'event 211: not imported: links organizer 9007199254740993: id 9007199254740993 is above 9007199254740991 (2^53 − 1), the highest id this API holds',
      'event 9007199254740993: not imported: id 9007199254740993 is above 9007199254740991 (2^53 − 1), the highest id this API holds',
      "tag -3: not imported: id -3 is not a positive whole number: WordPress's ids start at 1",
    ]);
    expect(s.kinds.event.created).toBe(3);
    expect(s.kinds.venue.created).toBe(1);
    expect(s.kinds.tag.created).toBe(2);
    // The link to the refused tag is left out, by its slug, and reported.
    expect(s.unlinked).toEqual([{ event: 202, kind: 'tag', ref: 'minus' }]);
    const text = formatSummary(s);
    expect(text).toContain('failed: event 9007199254740993: not imported: id 9007199254740993 is above 9007199254740991');
    expect(text).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('stores none of the refused records: nothing listed that cannot be read', async () => {
    for (const id of [0, -5, 9007199254740992, 210, 211]) expect((await get(`/events/${id}`)).status).toBeGreaterThanOrEqual(400);
    const list = await invoke('GET', 'en', '/events', { token, query: { start_date: '2027-01-01', per_page: 50, status: 'publish' } });
    expect(list.body.events.map((e: { id: number }) => e.id).sort()).toEqual([200, 201, 202]);
    expect((await get('/tags/-3')).status).toBeGreaterThanOrEqual(400);
  });

  it('stores every slug as WordPress would: no line end, control character or space', async () => {
    expect((await get('/events/200')).body.slug).toBe('badslug');
    expect((await get('/events/201')).body.slug).toBe('title-gives-the-slug');
    expect((await get('/venues/300')).body.slug).toBe('big-hallone');
    expect((await get('/tags/50')).body.slug).toBe('latenight');
    expect((await get('/tags/51')).body.slug).toBe('only-controls');
    expect((await get('/events/202')).body).toMatchObject({ venue: { id: 300 }, tags: [{ id: 50, slug: 'latenight' }] });
  });

  it('a second run writes nothing again, and refuses the same records', async () => {
    const again = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(again.kinds.event).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(again.failed.length).toBe(7);
  });
});
