// Event search against the live TEC: the same events on both sites, the same searches, the same
// events found (by title). Every search carries this run's marker, so that other records of the
// live site stay out of it (every term must match). The marker is letters and digits that no
// search below looks for: a base-36 time could hold the "x" a venue search expects to find nowhere.
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';
import { liveTec, TEC } from '../support/live-tec.js';

const run = `srch${Date.now()}`;

const EVENTS: Record<string, { title: string; description?: string; excerpt?: string }> = {
  concert: { title: `Concert ${run}`, description: '<p>Smooth <strong>jazz</strong> &amp; blues</p>', excerpt: 'An evening show' },
  cafe: { title: `Café Crème ${run}`, description: 'Hel<b>lo</b> world, rock-n-roll; 100% fun_time' },
  night: { title: `Jazz Night ${run}`, description: 'The concerto in A, "quoted words" here' },
  plain: { title: `Plain ${run}`, description: 'Nothing of note. Tom &amp; Jerry' },
};
const TITLES = new Map(Object.entries(EVENTS).map(([name, e]) => [e.title, name]));

const SEARCHES = [
  'conc',
  'oncer',
  'CONCERT',
  'jazz',
  'azz nig',
  'strong',
  'amp',
  'hello',
  'lo world',
  'cafe',
  'café',
  'CRÈME',
  '"jazz night"',
  '"night jazz"',
  'jazz -night',
  '-jazz',
  'rock-n',
  'the concerto',
  'evening',
  '100%',
  'fun_time',
  '"quoted',
  'a',
  '<p>',
  'nothing,note',
  'tom+jerry',
];

/** What some of them find, so that two empty answers cannot pass for agreement. */
const KNOWN: Record<string, string> = {
  conc: 'concert,night',
  oncer: 'concert,night',
  strong: 'concert',
  amp: 'concert,plain',
  hello: '',
  cafe: 'cafe',
  '"jazz night"': 'night',
  'jazz -night': 'concert',
  'rock-n': 'cafe',
};

describe('event search against the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-search', stream: true });
  let auth = '';

  beforeAll(async () => {
    const live = await liveTec();
    auth = live.auth;
    process.env.SITE_NAME = live.name;
    resetConfig();
    for (const body of Object.values(EVENTS)) {
      const event = { ...body, start_date: '2031-05-01 19:00:00', end_date: '2031-05-01 21:00:00' };
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1/events`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(event),
      });
      if (res.status !== 201) throw new Error(`The live TEC refused the event: ${res.status} ${await res.text()}`);
      await createAsEditor(gw, '/events', event);
    }
    await gw.drain();
  });

  const namesOf = (events: { title: string }[]) =>
    events
      .map((e) => TITLES.get(e.title.replace(/&#8217;/g, "'")) ?? e.title)
      .sort()
      .join(',');

  for (const search of SEARCHES) {
    it(`finds the same events for ${JSON.stringify(search)}`, async () => {
      const query = `${run} ${search}`;
      const window = { start_date: '2031-04-30', end_date: '2031-05-03' };
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1/events?${new URLSearchParams({ ...window, per_page: '50', search: query })}`, { headers: { authorization: auth } });
      const theirs = res.status === 200 ? ((await res.json()) as { events: { title: string }[] }).events : [];
      const mine = await gw.api('GET', '/events', { query: { ...window, per_page: 50, search: query } });
      expect(mine.status, mine.text).toBe(200);
      expect(namesOf(mine.body.events), `TEC ${res.status}`).toBe(namesOf(theirs));
      if (search in KNOWN) expect(namesOf(theirs)).toBe(KNOWN[search]);
    });
  }
});

describe('venue search against the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-search-venues' });
  let auth = '';
  const VENUES = {
    hall: { venue: `Grand Hall ${run}`, address: `12 Main Street ${run}`, city: 'Springfield' },
    cafe: { venue: `Café Nord ${run}`, address: 'Rue-de-la-Paix 3', city: 'Lyon' },
  };
  const NAMES = new Map(Object.entries(VENUES).map(([name, v]) => [v.venue, name]));

  beforeAll(async () => {
    const live = await liveTec();
    auth = live.auth;
    for (const body of Object.values(VENUES)) {
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1/venues`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`The live TEC refused the venue: ${res.status} ${await res.text()}`);
      await createAsEditor(gw, '/venues', body);
    }
  });

  const namesOf = (venues: { venue: string }[] = []) =>
    venues
      .map((v) => NAMES.get(v.venue) ?? v.venue)
      .sort()
      .join(',');

  for (const [search, known] of [
    ['rand hal', 'hall'],
    ['GRAND"hall', 'hall'],
    ['main', 'hall'],
    ['hall main', ''],
    ['caf', 'cafe'],
    ['nord', 'cafe'],
    ['x', ''],
  ] as const) {
    it(`finds the same venues for ${JSON.stringify(search)}`, async () => {
      const query = `${run} ${search}`;
      const res = await fetch(`${TEC}/wp-json/tribe/events/v1/venues?${new URLSearchParams({ per_page: '50', search: query })}`, { headers: { authorization: auth } });
      const theirs = res.status === 200 ? ((await res.json()) as { venues: { venue: string }[] }).venues : [];
      const mine = await gw.api('GET', '/venues', { query: { per_page: 50, search: query } });
      expect(namesOf(mine.body.venues), `TEC ${res.status}`).toBe(namesOf(theirs));
      expect(namesOf(theirs)).toBe(known);
    });
  }
});

describe('searching a password-protected event against the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-search-locked', stream: true });
  const marker = `lck${Date.now()}`;
  const event = { title: `Gala ${marker}title`, description: `Door code ${marker}48213`, start_date: '2031-06-02 18:00:00', end_date: '2031-06-02 20:00:00' };
  const window = { start_date: '2031-06-01', end_date: '2031-06-30' };
  let auth = '';

  beforeAll(async () => {
    const live = await liveTec();
    auth = live.auth;
    const made = await fetch(`${TEC}/wp-json/tribe/events/v1/events`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    if (made.status !== 201) throw new Error(`The live TEC refused the event: ${made.status} ${await made.text()}`);
    // TEC's own route takes no password: WordPress's sets it.
    const { id } = (await made.json()) as { id: number };
    const locked = await fetch(`${TEC}/wp-json/wp/v2/tribe_events/${id}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'hunter2' }),
    });
    if (locked.status !== 200) throw new Error(`The live TEC refused the password: ${locked.status} ${await locked.text()}`);
    await createAsEditor(gw, '/events', { ...event, password: 'hunter2' });
    await gw.drain();
  });

  const count = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { events?: unknown[] } | unknown[];
    return Array.isArray(body) ? body.length : (body.events?.length ?? 0);
  };

  for (const search of ['title', '48213', '4821']) {
    it(`finds it by "${search}" for signed-in callers only, as TEC does, in tribe/events/v1 and wp/v2`, async () => {
      const q = new URLSearchParams({ ...window, search: `${marker}${search}` });
      const theirs = [await count(`${TEC}/wp-json/tribe/events/v1/events?${q}`), await count(`${TEC}/wp-json/tribe/events/v1/events?${q}`, { authorization: auth })];
      const mine = [
        (await gw.api('GET', '/events', { query: Object.fromEntries(q) })).body.events.length,
        (await gw.api('GET', '/events', { query: Object.fromEntries(q), token: 'editor' })).body.events.length,
      ];
      expect(mine).toEqual(theirs);
      expect(theirs).toEqual([0, 1]);
      const wq = new URLSearchParams({ search: `${marker}${search}` });
      expect(await count(`${TEC}/wp-json/wp/v2/tribe_events?${wq}`)).toBe(0);
      const ours = await gw.api('GET', gw.abs(`/en/wp/v2/tribe_events?${wq}`));
      expect(ours.body).toEqual([]);
    });
  }
});
