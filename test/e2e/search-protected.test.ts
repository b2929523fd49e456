// A search never finds a password-protected event for a caller who is not signed in, by any of
// its texts (title included), in JSON lists and in calendar feeds, as WordPress's search adds
// `post_password = ''` for visitors; a signed-in caller's search finds it (redacted). The same
// holds while the event is a recent write the index has not caught up with, and once the password
// goes, anyone finds it.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'search-protected', stream: true });
const RUN = `q${Date.now().toString(36)}`;
const DAY = '2031-06-02';
const window = { start_date: '2031-06-01', end_date: '2031-06-30' };

type Caller = 'anonymous' | 'contributor' | 'editor';
const searchAs = async (caller: Caller, search: string, query: Record<string, string | number> = {}) => {
  const res = await gw.api('GET', '/events', { query: { search, ...window, ...query }, token: caller === 'anonymous' ? undefined : await gw.token(caller) });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res;
};
const idsFound = async (caller: Caller, search: string, query: Record<string, string | number> = {}) =>
  (await searchAs(caller, search, query)).body.events.map((e: { id: number }) => e.id);
const feedSummaries = async (caller: Caller, search: string) => {
  const res = await searchAs(caller, search, { ical: 1 });
  return [...res.text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1]);
};

describe('searching password-protected events', () => {
  let locked: number;
  let open: number;

  beforeAll(async () => {
    const at = (h: number) => `${DAY} ${String(h).padStart(2, '0')}:00:00`;
    locked = (
      await createAsEditor(gw, '/events', {
        title: `Gala ${RUN}title`,
        description: `The door code is ${RUN}48213`,
        excerpt: `Members ${RUN}excerpt`,
        password: 'hunter2',
        start_date: at(18),
        end_date: at(20),
      })
    ).id;
    // Its words are in an open event too, so that an empty answer is not agreement by accident.
    open = (await createAsEditor(gw, '/events', { title: `Open ${RUN}shared evening`, description: 'nothing hidden', start_date: at(10), end_date: at(11) })).id;
    await gw.drain();
  });

  it('an anonymous search finds it by no text: not the title, the content, a part of a word, the excerpt', async () => {
    for (const search of [`${RUN}title`, `${RUN}48213`, `${RUN}4821`, '48213', `${RUN}excerpt`, `gala ${RUN}title`, `"door code"`]) {
      const res = await searchAs('anonymous', search);
      expect([search, res.body.events, res.body.total]).toEqual([search, [], 0]);
    }
    // Not even with the event's password: WordPress asks only whether the caller is signed in.
    expect(await idsFound('anonymous', `${RUN}title`, { password: 'hunter2' })).toEqual([]);
    // A search that the index does not decide reads the records: those leave it out too.
    expect(await idsFound('anonymous', `-nowhere${RUN}`)).toEqual([open]);
    // Without a search, the list holds it (redacted), as TEC's does.
    const listed = await gw.api('GET', '/events', { query: window });
    expect(listed.body.events.map((e: { id: number }) => e.id)).toEqual([open, locked]);
  });

  it('an anonymous calendar feed of a search leaves it out', async () => {
    expect(await feedSummaries('anonymous', `${RUN}title`)).toEqual([]);
    expect(await feedSummaries('anonymous', `${RUN}4821`)).toEqual([]);
    expect(await feedSummaries('anonymous', RUN)).toEqual([`Open ${RUN}shared evening`]);
  });

  it('a signed-in search finds it, redacted, whatever the role', async () => {
    for (const caller of ['contributor', 'editor'] as const) {
      for (const search of [`${RUN}title`, `${RUN}4821`, `${RUN}excerpt`]) {
        const res = await searchAs(caller, search);
        expect([caller, search, res.body.events.map((e: { id: number }) => e.id), res.body.total]).toEqual([caller, search, [locked], 1]);
        expect(res.body.events[0].description).toBe('');
      }
      expect(await idsFound(caller, RUN)).toEqual([open, locked]);
    }
  });

  it('judges a write the index has not caught up with by its record, for each caller', async () => {
    await gw.stream.poller.pause();
    let fresh: number;
    try {
      fresh = (await createAsEditor(gw, '/events', { title: `Late ${RUN}fresh`, description: 'x', password: 'p', start_date: `${DAY} 21:00:00`, end_date: `${DAY} 22:00:00` })).id;
      expect(await idsFound('anonymous', `${RUN}fresh`)).toEqual([]);
      expect(await idsFound('editor', `${RUN}fresh`)).toEqual([fresh]);
      // Its password goes: anyone finds it at once.
      const cleared = await gw.api('PATCH', `/events/${fresh}`, { body: { password: '' }, token: await gw.token('editor') });
      expect(cleared.status, cleared.text).toBe(200);
      expect(await idsFound('anonymous', `${RUN}fresh`)).toEqual([fresh]);
    } finally {
      gw.stream.poller.resume();
    }
    await gw.drain();
    // Indexed: still found by anyone, and the protected event still only by signed-in callers.
    expect(await idsFound('anonymous', `${RUN}fresh`)).toEqual([fresh]);
    expect(await idsFound('anonymous', `${RUN}title`)).toEqual([]);
    expect(await idsFound('contributor', `${RUN}title`)).toEqual([locked]);
  });
});
