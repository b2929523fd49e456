// `offset` on WordPress's core list routes, as the live WordPress 6.8 with TEC 6.17 answers it:
// any integer is accepted and a negative one counts as its absolute value (WP_Query and
// WP_Term_Query take absint), 0 leaves the page in charge of tags (posts take it as an offset),
// `wp/v2/tribe_events_cat` ignores offset altogether (it does not declare it), and a post list's
// page that the offset leaves empty reports X-WP-Total 0 (WP_Query counts no rows then).
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { expectError } from '../support/expect.js';
import { useGateway, type ApiOptions } from '../support/gateway.js';

type Json = Record<string, any>;

const gw = useGateway({ tablePrefix: 'wpoffset' });
const wp = (route: string, query: ApiOptions['query']) => gw.api('GET', gw.abs(`/en/wp/v2${route}`), { query });
const base = () => `${config().siteUrl}/en/wp/v2`;
const ids = (res: { body: Json[] }) => res.body.map((x) => x.id);
const headers = (res: { headers: Headers }) => [res.headers.get('x-wp-total'), res.headers.get('x-wp-totalpages'), res.headers.get('link')];

describe('offset on wp/v2 lists', () => {
  const tags: number[] = [];
  const categories: number[] = [];
  const events: number[] = [];

  beforeAll(async () => {
    for (const i of [1, 2, 3]) {
      const tag = await gw.api('POST', gw.abs('/en/wp/v2/tags'), { token: 'editor', body: { name: `Offset tag ${i}` } });
      const category = await gw.api('POST', gw.abs('/en/wp/v2/tribe_events_cat'), { token: 'editor', body: { name: `Offset category ${i}` } });
      expect([tag.status, category.status]).toEqual([201, 201]);
      tags.push(tag.body.id);
      categories.push(category.body.id);
    }
    for (const i of [1, 2, 3]) {
      const res = await gw.api('POST', '/events', {
        token: 'editor',
        body: { title: `Offset event ${i}`, date: `2026-01-0${i} 10:00:00`, start_date: `2031-05-0${i} 10:00:00`, end_date: `2031-05-0${i} 11:00:00` },
      });
      expect(res.status, res.text).toBe(201);
      events.unshift(res.body.id); // newest first, as the list orders them
    }
  });

  it('tags: a negative offset counts as positive; the links count pages from the offset as given', async () => {
    const one = await wp('/tags', { offset: 1, per_page: 2 });
    const minusOne = await wp('/tags', { offset: -1, per_page: 2 });
    expect(minusOne.status, minusOne.text).toBe(200);
    expect(ids(minusOne)).toEqual(ids(one));
    expect(ids(minusOne)).toEqual(tags.slice(1, 3));
    // WordPress: page = ceil(offset / per_page + 1), so -1 is page 1 and -5 page -1.
    expect(headers(minusOne)).toEqual(['3', '2', `<${base()}/tags?offset=-1&per_page=2&page=2>; rel="next"`]);
    const minusFive = await wp('/tags', { offset: -5, per_page: 2 });
    expect(minusFive.body).toEqual([]);
    expect(headers(minusFive)).toEqual(['3', '2', `<${base()}/tags?offset=-5&per_page=2&page=0>; rel="next"`]);
    // 0 is no offset: the page decides.
    expect(ids(await wp('/tags', { offset: 0, per_page: 2, page: 2 }))).toEqual([tags[2]]);
    expectError(await wp('/tags', { offset: 'abc' }), 400, 'rest_invalid_param');
  });

  it('tribe_events_cat: offset is not a parameter there, whatever its value', async () => {
    const first = await wp('/tribe_events_cat', { per_page: 2 });
    for (const offset of [-1, 1, 'abc', 99]) {
      const res = await wp('/tribe_events_cat', { offset, per_page: 2 });
      expect(res.status, res.text).toBe(200);
      expect(ids(res)).toEqual(ids(first));
      expect(ids(res)).toEqual(categories.slice(0, 2));
    }
  });

  it('tribe_events: a negative offset counts as positive, 0 leaves the page, an empty page counts nothing', async () => {
    const minusOne = await wp('/tribe_events', { offset: -1, per_page: 1 });
    expect(minusOne.status, minusOne.text).toBe(200);
    expect(ids(minusOne)).toEqual([events[1]]);
    expect(ids(await wp('/tribe_events', { offset: -2 }))).toEqual([events[2]]);
    expect(headers(minusOne)).toEqual(['3', '3', `<${base()}/tribe_events?offset=-1&per_page=1&page=2>; rel="next"`]);
    // 0 is an offset too (WP_Query takes any numeric offset over the page).
    expect(ids(await wp('/tribe_events', { offset: 0, per_page: 1, page: 2 }))).toEqual([events[0]]);
    // The page only names the links when an offset is given.
    expect(ids(await wp('/tribe_events', { offset: -1, per_page: 1, page: 3 }))).toEqual([events[1]]);
    // Past the end: nothing, and no total (WordPress's found_posts is 0 for an empty page).
    const past = await wp('/tribe_events', { offset: 3 });
    expect(past.status, past.text).toBe(200);
    expect(past.body).toEqual([]);
    // Without a page link, the REST API's discovery link (as WordPress sends on every answer).
    expect(headers(past)).toEqual(['0', '0', `<${base().replace(/wp\/v2$/, '')}>; rel="https://api.w.org/"`]);
    const pastPage = await wp('/tribe_events', { offset: -9, page: 5 });
    expect(headers(pastPage)).toEqual(['0', '0', `<${base()}/tribe_events?offset=-9&page=0>; rel="prev"`]);
    // A page beyond the last with rows at the offset is still an error.
    expectError(await wp('/tribe_events', { offset: -1, page: 9 }), 400, 'rest_post_invalid_page_number');
    expectError(await wp('/tribe_events', { offset: '1.5' }), 400, 'rest_invalid_param');
  });
});
