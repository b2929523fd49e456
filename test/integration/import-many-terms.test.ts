// Events linked to many categories and tags, imported from an export file on DynamoDB Local: ten of
// each (this API's most per event) keep every link; eleven categories are refused with the reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import { cdata, wxrDocument, wxrItem } from '../support/wxr-export.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('import-many-terms');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

const N = 11;
const term = (id: number, taxonomy: string, slug: string, parent = '') =>
  `\t<wp:term><wp:term_id>${id}</wp:term_id><wp:term_taxonomy>${cdata(taxonomy)}</wp:term_taxonomy><wp:term_slug>${cdata(slug)}</wp:term_slug><wp:term_parent>${cdata(parent)}</wp:term_parent><wp:term_name>${cdata(slug.toUpperCase())}</wp:term_name></wp:term>\n`;
const cats = Array.from({ length: N }, (_, i) => `cat-${i + 1}`);
const tags = Array.from({ length: N }, (_, i) => `tag-${i + 1}`);
const FILE = wxrDocument([
  ...cats.map((slug, i) => term(40 + i, 'tribe_events_cat', slug, i > 0 && i % 3 === 0 ? cats[i - 1]! : '')),
  ...tags.map((slug, i) => term(80 + i, 'post_tag', slug)),
  event(500, cats.slice(0, 10), tags.slice(0, 10)),
  event(501, cats, tags.slice(0, 1)),
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
  it('ten of each are imported with every link; eleven categories are refused, saying why', async () => {
    const s = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(s.failed).toEqual([{ kind: 'event', id: 501, reason: '400 rest_invalid_param: Invalid parameter(s): categories (categories: categories takes at most 10 items.)' }]);
    const e = (await invoke('GET', 'en', '/events/500', { token })).body;
    const ids = (list: { id: number }[]) => list.map((t) => t.id).sort((a, b) => a - b);
    expect(ids(e.categories)).toEqual(cats.slice(0, 10).map((_, i) => 40 + i));
    expect(ids(e.tags)).toEqual(tags.slice(0, 10).map((_, i) => 80 + i));
    const again = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(again.kinds.event.unchanged).toBe(1);
    expect(again.failed.map((f) => f.id)).toEqual([501]);
  });
});
