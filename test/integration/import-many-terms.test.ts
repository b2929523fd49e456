// Events linked to many categories and tags, imported from an export file on DynamoDB Local: ten of
// each, and eleven categories, keep every link; an event with more links than one write holds is
// imported with those that fit (categories first, then tags, in the site's order), and the summary
// lists the links left out.
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { formatSummary, importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import { cdata, wxrDocument, wxrItem } from '../support/wxr-export.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('import-many-terms');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

const N = 25;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const term = (id: number, taxonomy: string, slug: string, parent = '') =>
  `\t<wp:term><wp:term_id>${id}</wp:term_id><wp:term_taxonomy>${cdata(taxonomy)}</wp:term_taxonomy><wp:term_slug>${cdata(slug)}</wp:term_slug><wp:term_parent>${cdata(parent)}</wp:term_parent><wp:term_name>${cdata(slug.toUpperCase())}</wp:term_name></wp:term>\n`;
const cats = Array.from({ length: N }, (_, i) => `cat-${i + 1}`);
const tags = Array.from({ length: 15 }, (_, i) => `tag-${i + 1}`);
const FILE = wxrDocument([
  ...cats.map((slug, i) => term(40 + i, 'tribe_events_cat', slug, i > 0 && i % 3 === 0 ? cats[i - 1]! : '')),
  ...tags.map((slug, i) => term(80 + i, 'post_tag', slug)),
  event(500, cats.slice(0, 10), tags.slice(0, 10)),
  event(501, cats.slice(0, 11), tags.slice(0, 1)),
  // 40 links: a published event's create holds 31 (lib/logic/event-room.ts).
  event(502, cats, tags.slice(0, 15)),
]);
function event(id: number, catSlugs: string[], tagSlugs: string[]) {
  return wxrItem({
    id,
    type: 'tribe_events',
    title: `Many terms ${id}`,
    slug: `many-terms-${id}`,
    creator: 'admin',
    terms: [
      ...catSlugs.map((slug) => ({ taxonomy: 'tribe_events_cat', slug, name: slug.toUpperCase() })),
      ...tagSlugs.map((slug) => ({ taxonomy: 'post_tag', slug, name: slug.toUpperCase() })),
    ],
    meta: [
      ['_EventStartDate', '2027-06-01 10:00:00'],
      ['_EventEndDate', '2027-06-01 12:00:00'],
      ['_EventTimezone', 'UTC+0'],
    ],
  });
}
async function* chunks() {
  yield FILE;
}

describe('events with many categories and tags', () => {
  it('are imported with every link that fits; the links left out are listed in the summary', async () => {
    const s = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(3);
    const ids = (list: { id: number }[]) => list.map((t) => t.id).sort((a, b) => a - b);
    const read = async (id: number) => (await invoke('GET', 'en', `/events/${id}`, { token })).body;
    const e500 = await read(500);
    expect(ids(e500.categories)).toEqual(cats.slice(0, 10).map((_, i) => 40 + i));
    expect(ids(e500.tags)).toEqual(tags.slice(0, 10).map((_, i) => 80 + i));
    expect(ids((await read(501)).categories)).toEqual(cats.slice(0, 11).map((_, i) => 40 + i));
    // Every category, then the first 6 tags: 31 links.
    const e502 = await read(502);
    expect(ids(e502.categories)).toEqual(cats.map((_, i) => 40 + i));
    expect(ids(e502.tags)).toEqual(range(6).map((i) => 80 + i));
    expect(s.unlinked).toEqual(range(9).map((i) => ({ event: 502, kind: 'tag', ref: 86 + i, room: true })));
    const text = formatSummary(s);
    expect(text).toContain('9 links past those one write of an event holds, left out: event 502 → tag 86, event 502 → tag 87');
    expect(text).not.toContain('neither the source');
    // Counts are exact: each of the first 6 tags is on three events, 502's left-out tags on none.
    const count = async (id: number) => (await invoke('GET', 'en', `/tags/${id}`, { token })).body.count;
    expect(await count(80)).toBe(3);
    expect(await count(85)).toBe(2);
    expect(await count(86)).toBe(1);
    expect(await count(94)).toBe(0);
    expect((await invoke('GET', 'en', '/categories/64', { token })).body.count).toBe(1);
    // A second run finds nothing to write.
    const again = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(again.kinds.event.unchanged).toBe(3);
    expect(again.failed).toEqual([]);
  });
});
