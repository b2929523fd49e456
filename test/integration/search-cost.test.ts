// A search of two words against the page without search, in-process with the store's capacity
// tally: a page whose first chunk of candidates holds its matches costs the list's requests (the
// candidates are judged on their records, which are the page's own read), and the answer is the
// same events, with their terms, as the index path gives for rarer matches.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { capacity } from '#lib/store/db.js';
import { backfillSearch } from '#lib/stream/backfill.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('search-cost');

const day = (n: number) => new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1 + n)).toISOString().slice(0, 10);
/** Titles by kind: both words, one of them, and a rare third word with both. */
const TITLES: [string, number][] = [
  ['Wheelchair accessible concert', 16],
  ['Wheelchair rugby', 6],
  ['Accessible garden walk', 6],
  ['Wheelchair accessible quokka tour', 2],
];

let token: string;
let category: number;
beforeAll(async () => {
  token = await roleToken('editor', 'search-cost');
  category = (await invoke('POST', 'en', '/categories', { token, body: { name: 'Outings' } })).body.id;
  let n = 0;
  for (const [title, count] of TITLES)
    for (let i = 0; i < count; i++, n++) {
      const made = await invoke('POST', 'en', '/events', {
        token,
        body: { title: `${title} ${i}`, start_date: `${day(n)} 10:00:00`, end_date: `${day(n)} 11:00:00`, categories: [category] },
      });
      expect(made.status).toBe(201);
    }
  // The index as the consumer would leave it, and no recent writes left to fold in.
  await backfillSearch();
}, 120_000);

/** A page, after one request of it (the vocabulary lookups a warm function keeps). */
async function page(query: Record<string, string | number>) {
  const send = () => invoke('GET', 'en', '/events', { query: { per_page: 9, start_date: day(0), ...query } });
  await send();
  capacity.reset();
  const res = await send();
  expect(res.status).toBe(200);
  return { res, requests: capacity.snapshot().requests };
}

const titles = (res: { body: { events: { title: string }[] } }) => res.body.events.map((e) => e.title);

describe('a search of two words', () => {
  it('costs the requests of the page without search, and finds the events with both words, with their terms', async () => {
    const list = await page({});
    const two = await page({ search: 'wheelchair accessible' });
    expect(two.requests).toBeLessThanOrEqual(list.requests);
    expect(titles(two.res)).toEqual([...Array(9).keys()].map((i) => `Wheelchair accessible concert ${i}`));
    expect(two.res.body.events.every((e: { categories: { id: number; count: number }[] }) => e.categories[0]?.id === category && e.categories[0]?.count === 30)).toBe(true);
    // Page 2 runs on into the events of the rarer title.
    const next = await page({ search: 'wheelchair accessible', page: 2 });
    expect(titles(next.res)).toEqual([
      ...[...Array(7).keys()].map((i) => `Wheelchair accessible concert ${9 + i}`),
      'Wheelchair accessible quokka tour 0',
      'Wheelchair accessible quokka tour 1',
    ]);
  });

  it('gives the same events by the index when the matches are rare, and leaves out an excluded word', async () => {
    const rare = await page({ search: 'quokka wheelchair' });
    expect(titles(rare.res)).toEqual(['Wheelchair accessible quokka tour 0', 'Wheelchair accessible quokka tour 1']);
    const without = await page({ search: 'wheelchair -accessible' });
    expect(titles(without.res)).toEqual([...Array(6).keys()].map((i) => `Wheelchair rugby ${i}`));
    expect(Number(without.res.headers['X-TEC-Total'])).toBe(6);
  });
});
