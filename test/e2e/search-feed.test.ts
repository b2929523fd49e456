// A calendar feed of a search judges its candidates within the request's budget
// (lib/logic/feed-reads.ts SearchRoom): a feed that fits is whole, for an anonymous reader (one
// status) and for an editor, whose search reads every status's partition of every word.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'searchfeed', stream: true });

/** Three words hold "azz" (three partitions per status), and every title holds "night". */
const WORDS = ['Jazz', 'Jazzy', 'Jazzier'];
const N = 130;
const titles = Array.from({ length: N }, (_, i) => `${WORDS[i % 3]} night ${i}`);

describe('a feed of a search past the request budget', () => {
  beforeAll(async () => {
    const todo = [...titles.keys()];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = todo.shift(); i !== undefined; i = todo.shift()) {
          // One event an hour, so that the feed's order is the titles' order.
          const at = new Date(Date.UTC(2031, 4, 1) + i * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
          await createAsEditor(gw, '/events', { title: titles[i], start_date: at, end_date: at });
        }
      }),
    );
    await gw.stream.drain(120_000);
  }, 240_000);

  const feed = (token?: 'editor') => gw.api('GET', '/events', { query: { ical: 1, search: 'azz night', start_date: '2031-05-01', end_date: '2031-05-31' }, token });
  const summaries = (text: string) => [...text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1]);

  it('holds every match for an anonymous reader, whose search reads one status', async () => {
    const res = await feed();
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect([res.headers.get('x-tec-total'), res.headers.get('x-feed-events'), res.headers.get('x-feed-truncated')]).toEqual([String(N), String(N), null]);
    expect(summaries(res.text)).toEqual(titles);
  });

  it('holds every match for an editor too, in order', async () => {
    const res = await feed('editor');
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect([res.headers.get('x-tec-total'), res.headers.get('x-feed-events'), res.headers.get('x-feed-truncated')]).toEqual([String(N), String(N), null]);
    expect(summaries(res.text)).toEqual(titles);
  });

  it('still answers an editor’s page of the same search in full', async () => {
    const res = await gw.api('GET', '/events', { query: { search: 'azz night', start_date: '2031-05-01', end_date: '2031-05-31', per_page: 50 }, token: 'editor' });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.events.map((e: { title: string }) => e.title)).toEqual(titles.slice(0, 50));
  });
});
