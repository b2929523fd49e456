// Password-protected events end to end (docs/tec-behaviour.md §3.7, §5.1 step 6): the `password` field is
// write-only; single reads without the right `password` are 403 event-password-protected, whoever
// asks; with `context=edit`, those who may edit the event (editors, its author) read it in full, as
// on TEC (WordPress's rule); lists redact protected events unless `password` matches or the same
// `context=edit` applies; "" removes the protection; every language behaves the same.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#lib/contract/principal.js';
import { useGateway, type ApiOptions, type ApiResponse, type Lang } from '../support/gateway.js';
import { RUN } from '../support/run-id.js';

type Json = Record<string, any>;

const PROTECTED = {
  code: 'event-password-protected',
  message: 'The requested event is not accessible without a password',
  data: { status: 403 },
};

/** The day the run started on, so that a run across midnight writes and lists the same dates. */
const TODAY = new Date();

/** 'YYYY-MM-DD' of the run's first day (UTC, the site zone) plus `days`. */
function day(days: number): string {
  const now = TODAY;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** docs/tec-behaviour.md §3.7: what a protected event's keys become, at any depth. */
const REDACTED: Json = {
  description: '',
  excerpt: '',
  cost: '',
  website: '',
  email: '',
  phone: '',
  stateprovince: '',
  zip: '',
  province: '',
  country: '',
  city: '',
  address: '',
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
};

/** The redacted form of a full list item, written from the reference table. */
function redacted(full: Json): Json {
  return Object.fromEntries(Object.entries(full).map(([k, v]) => [k, k in REDACTED ? REDACTED[k] : v]));
}

/** No `password` key anywhere in a JSON value. */
function hasPasswordKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasPasswordKey);
  if (!v || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => k === 'password' || hasPasswordKey(x));
}

describe('password-protected events', () => {
  const gw = useGateway({ tablePrefix: 'e2e-passwords', stream: true });

  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (role: Role, sub: string) => {
    let t = tokens.get(sub);
    if (!t) tokens.set(sub, (t = gw.token(role, sub)));
    return t;
  };
  const OWNER = `pw-owner-${RUN}`; // an author
  const OTHER_AUTHOR = `pw-other-${RUN}`;
  const CONTRIBUTOR = `pw-contrib-${RUN}`;
  const EDITOR = `pw-editor-${RUN}`;

  const api = (method: string, path: string, opts: ApiOptions = {}) => gw.api(method, path, opts);
  const as = async (role: Role, sub: string, method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) => api(method, path, { ...opts, token: await tokenOf(role, sub) });
  const editor = (method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) => as('editor', EDITOR, method, path, opts);
  const owner = (method: string, path: string, opts: Omit<ApiOptions, 'token'> = {}) => as('author', OWNER, method, path, opts);

  /** Every response that carries an event: no password, in any form. */
  function expectNoPassword(res: ApiResponse, password: string) {
    expect(hasPasswordKey(res.body), res.text).toBe(false);
    expect(res.text.includes(password), res.text).toBe(false);
  }

  let n = 0;
  /**
   * A published event by OWNER, with every field the redaction touches set, on its own day
   * (so that a list can be narrowed to that day).
   */
  async function protectedEvent(password: string, lang: Lang = 'en', extra: Json = {}): Promise<{ event: Json; dayOffset: number }> {
    const i = ++n;
    const dayOffset = 20 + i;
    const res = await owner('POST', '/events', {
      lang,
      body: {
        title: `Guarded g${i}z${RUN}`,
        description: 'Hidden words',
        excerpt: 'Hidden excerpt',
        start_date: `${day(dayOffset)} 18:00:00`,
        end_date: `${day(dayOffset)} 20:00:00`,
        cost: '20$',
        website: 'http://example.com/guarded',
        image: 'http://example.com/guarded.png',
        featured: true,
        sticky: true,
        show_map: true,
        categories: [`Cat ${i} ${RUN}`],
        tags: [`Tag ${i} ${RUN}`],
        venue: { venue: `Hall ${i} ${RUN}`, city: 'Vilnius', address: 'Gedimino 1', zip: '01103' },
        organizer: [{ organizer: `Org ${i} ${RUN}`, email: 'org@example.com', phone: '+370 5 000' }],
        password,
        ...extra,
      },
    });
    expect(res.status, res.text).toBe(201);
    expectNoPassword(res, password);
    return { event: res.body, dayOffset };
  }

  /** A plain (unprotected) published event on the same day. */
  async function plainEvent(dayOffset: number, lang: Lang = 'en'): Promise<Json> {
    const res = await owner('POST', '/events', {
      lang,
      body: { title: `Open ${dayOffset} ${RUN}`, description: 'Open words', start_date: `${day(dayOffset)} 09:00:00`, end_date: `${day(dayOffset)} 10:00:00`, featured: true },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  const dayList = (dayOffset: number, opts: Omit<ApiOptions, 'query'> & { query?: Json } = {}) =>
    api('GET', '/events', { ...opts, query: { start_date: day(dayOffset), end_date: day(dayOffset), ...(opts.query ?? {}) } });

  beforeAll(async () => {
    // Register the users up front.
    for (const [role, sub] of [
      ['author', OWNER],
      ['author', OTHER_AUTHOR],
      ['contributor', CONTRIBUTOR],
      ['editor', EDITOR],
    ] as const) {
      const res = await as(role, sub, 'POST', '/organizers', { body: { organizer: `Registration ${sub}` } });
      expect(res.status, res.text).toBe(201);
    }
  });

  describe('single reads', () => {
    const PW = `Sesame-${RUN}!`;
    let event: Json;
    let full: Json;

    beforeAll(async () => {
      ({ event } = await protectedEvent(PW));
      const res = await editor('GET', `/events/${event.id}`, { query: { context: 'edit' } });
      expect(res.status, res.text).toBe(200);
      full = res.body;
    });

    it('the full event has the data (sanity check of the fixture)', () => {
      expect(full.description).toBe('<p>Hidden words</p>');
      expect(full.venue.venue).toContain('Hall');
      expect(full.categories).toHaveLength(1);
      expect(full.featured).toBe(true);
      expect(full.json_ld).toBeDefined();
    });

    for (const route of ['id', 'slug'] as const) {
      const path = () => (route === 'id' ? `/events/${event.id}` : `/events/by-slug/${event.slug}`);

      it(`by ${route}: anonymous without a password, with a wrong one, or with "" is 403 event-password-protected`, async () => {
        expect((await api('GET', path())).body).toEqual(PROTECTED);
        expect((await api('GET', path(), { query: { password: 'wrong' } })).body).toEqual(PROTECTED);
        expect((await api('GET', path(), { query: { password: PW.toLowerCase() } })).body).toEqual(PROTECTED);
        expect((await api('GET', path(), { query: { password: `${PW} ` } })).body).toEqual(PROTECTED);
        expect((await api('GET', path(), { query: { password: '' } })).body).toEqual(PROTECTED);
        const res = await api('GET', path());
        expect(res.status).toBe(403);
      });

      it(`by ${route}: with the right password it is 200 and complete`, async () => {
        const res = await api('GET', path(), { query: { password: PW } });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual(full);
        expectNoPassword(res, PW);
      });

      it(`by ${route}: editors and the event's author read it in full with context=edit, without the password`, async () => {
        const edit = { query: { context: 'edit' } };
        for (const res of [await editor('GET', path(), edit), await owner('GET', path(), edit), await editor('GET', path(), { query: { context: 'edit', password: 'wrong' } })]) {
          expect(res.status, res.text).toBe(200);
          expect(res.body).toEqual(full);
          expectNoPassword(res, PW);
        }
      });

      it(`by ${route}: editors and the event's author need the password or context=edit, as anyone`, async () => {
        expect((await editor('GET', path())).body).toEqual(PROTECTED);
        expect((await owner('GET', path())).body).toEqual(PROTECTED);
        expect((await editor('GET', path(), { query: { context: 'view' } })).body).toEqual(PROTECTED);
        expect((await owner('GET', path(), { query: { password: PW } })).body).toEqual(full);
      });

      it(`by ${route}: other authors and contributors need the password, context=edit or not`, async () => {
        expect((await as('author', OTHER_AUTHOR, 'GET', path())).body).toEqual(PROTECTED);
        expect((await as('author', OTHER_AUTHOR, 'GET', path(), { query: { context: 'edit' } })).body).toEqual(PROTECTED);
        expect((await as('contributor', CONTRIBUTOR, 'GET', path(), { query: { context: 'edit' } })).body).toEqual(PROTECTED);
        expect((await api('GET', path(), { query: { context: 'edit' } })).body).toEqual(PROTECTED);
        const res = await as('author', OTHER_AUTHOR, 'GET', path(), { query: { password: PW } });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual(full);
      });
    }

    it('the password is never in any response: create, update, read, list, delete', async () => {
      const pw = `Only-Me-${RUN}`;
      const { event: e, dayOffset } = await protectedEvent(pw);
      const responses = [
        await owner('PATCH', `/events/${e.id}`, { body: { title: `Renamed ${RUN}` } }),
        await editor('PUT', `/events/by-slug/${e.slug}`, { body: { password: pw } }),
        await editor('GET', `/events/${e.id}`, { query: { context: 'edit' } }),
        await api('GET', `/events/${e.id}`, { query: { password: pw } }),
        await api('GET', `/events/by-slug/${e.slug}`, { query: { password: pw } }),
        await editor('GET', '/events', { query: { start_date: day(dayOffset), end_date: day(dayOffset), context: 'edit' } }),
        await dayList(dayOffset, { query: { password: pw } }),
        await dayList(dayOffset),
      ];
      for (const res of responses) {
        expect(res.status, res.text).toBe(200);
        expectNoPassword(res, pw);
      }
      const del = await owner('DELETE', `/events/${e.id}`);
      expect(del.status, del.text).toBe(200);
      expectNoPassword(del, pw);
    });

    it('a protected draft is event-not-accessible for anonymous callers, even with the password', async () => {
      const pw = `Draft-${RUN}`;
      const { event: e } = await protectedEvent(pw, 'en', { status: 'draft' });
      const body = { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } };
      expect((await api('GET', `/events/${e.id}`)).body).toEqual(body);
      expect((await api('GET', `/events/${e.id}`, { query: { password: pw } })).body).toEqual(body);
      expect((await owner('GET', `/events/${e.id}`, { query: { context: 'edit' } })).status).toBe(200);
      expect((await owner('GET', `/events/${e.id}`)).body).toEqual(PROTECTED);
    });

    it('a contributor creates a protected draft and reads it with context=edit, without the password; the password stays hidden', async () => {
      const pw = `Contrib-${RUN}`;
      const res = await as('contributor', CONTRIBUTOR, 'POST', '/events', {
        body: { title: `Contrib guarded ${RUN}`, start_date: `${day(90)} 10:00:00`, end_date: `${day(90)} 11:00:00`, password: pw },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe('draft');
      expectNoPassword(res, pw);
      const own = await as('contributor', CONTRIBUTOR, 'GET', `/events/${res.body.id}`, { query: { context: 'edit' } });
      expect(own.status, own.text).toBe(200);
      expectNoPassword(own, pw);
      expect((await as('contributor', CONTRIBUTOR, 'GET', `/events/${res.body.id}`)).body).toEqual(PROTECTED);
    });
  });

  describe('lists', () => {
    const PW = `List-${RUN}`;
    let event: Json;
    let open: Json;
    let dayOffset: number;
    /** The protected event as an editor's list shows it with context=edit (unredacted). */
    let full: Json;

    beforeAll(async () => {
      ({ event, dayOffset } = await protectedEvent(PW));
      open = await plainEvent(dayOffset);
      const res = await editor('GET', '/events', { query: { start_date: day(dayOffset), end_date: day(dayOffset), context: 'edit' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.events.map((e: Json) => e.id)).toEqual([open.id, event.id]);
      full = res.body.events[1];
    });

    it('anonymous callers get the protected event redacted as in docs/tec-behaviour.md §3.7; other events untouched', async () => {
      const res = await dayList(dayOffset);
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(2);
      const [first, second] = res.body.events;
      expect(first.id).toBe(open.id);
      expect(first.description).toBe('<p>Open words</p>');
      expect(first.featured).toBe(true);
      // Same keys in the same order, values replaced per the table.
      expect(Object.keys(second)).toEqual(Object.keys(full));
      expect(second).toEqual(redacted(full));
      // Spelled out: what goes and what stays.
      expect(second).toMatchObject({
        description: '',
        excerpt: '',
        venue: [],
        organizer: [],
        categories: [],
        tags: [],
        featured: null,
        sticky: null,
        show_map: null,
        all_day: null,
        image: false,
        cost: '',
        website: '',
        cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
        custom_fields: [],
        id: event.id,
        title: event.title,
        slug: event.slug,
        status: 'publish',
        start_date: event.start_date,
        end_date: event.end_date,
        utc_start_date: event.utc_start_date,
        url: event.url,
        rest_url: event.rest_url,
      });
      expect(full.description).not.toBe('');
      expect(full.venue).not.toEqual([]);
    });

    it('with the right password the list shows it in full; a wrong one keeps it redacted', async () => {
      const right = await dayList(dayOffset, { query: { password: PW } });
      expect(right.status, right.text).toBe(200);
      expect(right.body.events[1]).toEqual(full);
      const wrong = await dayList(dayOffset, { query: { password: 'nope' } });
      expect(wrong.body.events[1]).toEqual(redacted(full));
    });

    it("with context=edit editors and the event's author see it in full; another author sees it redacted", async () => {
      const edit = { query: { context: 'edit' } };
      expect((await dayList(dayOffset, { token: await tokenOf('editor', EDITOR), ...edit })).body.events[1]).toEqual(full);
      expect((await dayList(dayOffset, { token: await tokenOf('author', OWNER), ...edit })).body.events[1]).toEqual(full);
      expect((await dayList(dayOffset, { token: await tokenOf('author', OTHER_AUTHOR), ...edit })).body.events[1]).toEqual(redacted(full));
    });

    it("without context=edit editors and the event's author see it redacted, as anyone", async () => {
      expect((await dayList(dayOffset, { token: await tokenOf('editor', EDITOR) })).body.events[1]).toEqual(redacted(full));
      expect((await dayList(dayOffset, { token: await tokenOf('author', OWNER) })).body.events[1]).toEqual(redacted(full));
    });

    it("a signed-in caller's search and include lists redact too; an anonymous search never finds it (WordPress's)", async () => {
      await gw.drain();
      const bySearch = await api('GET', '/events', { query: { search: event.title }, token: await tokenOf('editor', EDITOR) });
      expect(bySearch.status, bySearch.text).toBe(200);
      expect(bySearch.body.events).toEqual([redacted(full)]);
      expect((await api('GET', '/events', { query: { search: event.title } })).body.events).toEqual([]);
      const byInclude = await api('GET', '/events', { query: { include: event.id } });
      expect(byInclude.body.events).toEqual([redacted(full)]);
      const unlocked = await api('GET', '/events', { query: { include: event.id, password: PW } });
      expect(unlocked.body.events).toEqual([full]);
    });
  });

  describe('changing and removing the password', () => {
    it('an update without `password` keeps the protection; "" removes it; a new one replaces the old', async () => {
      const old = `Old-${RUN}`;
      const { event: e, dayOffset } = await protectedEvent(old);
      const upd = await owner('PATCH', `/events/${e.id}`, { body: { description: 'New words' } });
      expect(upd.status, upd.text).toBe(200);
      expect((await api('GET', `/events/${e.id}`)).body).toEqual(PROTECTED);

      const cleared = await owner('PATCH', `/events/${e.id}`, { body: { password: '' } });
      expect(cleared.status, cleared.text).toBe(200);
      const open = await api('GET', `/events/${e.id}`);
      expect(open.status, open.text).toBe(200);
      expect(open.body.description).toBe('<p>New words</p>');
      expect((await api('GET', `/events/by-slug/${e.slug}`)).status).toBe(200);
      const list = await dayList(dayOffset);
      expect(list.body.events[0].description).toBe('<p>New words</p>');
      expect(list.body.events[0].venue).not.toEqual([]);

      const next = `New-${RUN}`;
      expect((await editor('POST', `/events/${e.id}`, { body: { password: next } })).status).toBe(200);
      expect((await api('GET', `/events/${e.id}`)).body).toEqual(PROTECTED);
      expect((await api('GET', `/events/${e.id}`, { query: { password: old } })).body).toEqual(PROTECTED);
      expect((await api('GET', `/events/${e.id}`, { query: { password: next } })).status).toBe(200);
      expect((await dayList(dayOffset, { query: { password: old } })).body.events[0].description).toBe('');
      expect((await dayList(dayOffset, { query: { password: next } })).body.events[0].description).toBe('<p>New words</p>');
    });

    it('a password can be added to an unprotected event', async () => {
      const pw = `Added-${RUN}`;
      const e = await plainEvent(95);
      expect((await api('GET', `/events/${e.id}`)).status).toBe(200);
      const res = await owner('PATCH', `/events/${e.id}`, { body: { password: pw } });
      expect(res.status, res.text).toBe(200);
      expectNoPassword(res, pw);
      expect((await api('GET', `/events/${e.id}`)).body).toEqual(PROTECTED);
      expect((await api('GET', `/events/${e.id}`, { query: { password: pw } })).status).toBe(200);
    });
  });

  describe('every language', () => {
    for (const lang of ['en', 'lt', 'ru'] as const) {
      it(`/${lang}/: single reads by id and slug, and lists, with and without the password`, async () => {
        const pw = `Lang-${lang}-${RUN}`;
        const { event: e, dayOffset } = await protectedEvent(pw, lang);
        expect(e.lang).toBe(lang);
        for (const path of [`/events/${e.id}`, `/events/by-slug/${e.slug}`]) {
          expect((await api('GET', path, { lang })).body, `${lang} ${path}`).toEqual(PROTECTED);
          expect((await api('GET', path, { lang, query: { password: 'wrong' } })).body).toEqual(PROTECTED);
          const ok = await api('GET', path, { lang, query: { password: pw } });
          expect(ok.status, ok.text).toBe(200);
          expect(ok.body.description).toBe('<p>Hidden words</p>');
          expect(ok.body.lang).toBe(lang);
          expectNoPassword(ok, pw);
          const mine = await api('GET', path, { lang, token: await tokenOf('author', OWNER), query: { context: 'edit' } });
          expect(mine.status, mine.text).toBe(200);
        }
        const list = await dayList(dayOffset, { lang });
        expect(list.status, list.text).toBe(200);
        expect(list.body.events.map((x: Json) => x.id)).toEqual([e.id]);
        expect(list.body.events[0]).toMatchObject({ title: e.title, description: '', venue: [], categories: [], featured: null, image: false });
        const unlocked = await dayList(dayOffset, { lang, query: { password: pw } });
        expect(unlocked.body.events[0]).toMatchObject({ title: e.title, description: '<p>Hidden words</p>', featured: true });
        expectNoPassword(unlocked, pw);
      });
    }

    it('ml_language does not change the protection of a record read by id', async () => {
      const pw = `Ml-${RUN}`;
      const { event: e } = await protectedEvent(pw, 'ru');
      expect((await api('GET', `/events/${e.id}`, { lang: 'en', query: { ml_language: 'lt' } })).body).toEqual(PROTECTED);
      expect((await api('GET', `/events/${e.id}`, { lang: 'en', query: { ml_language: 'lt', password: pw } })).status).toBe(200);
    });
  });
});
