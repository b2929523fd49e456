// Venues and organizers end to end, through the local gateway (docs/tec-behaviour.md §3.4, §3.5, §4.2,
// §5.3, §6.2, §1). Every request goes over HTTP to the real handlers and a fresh table.
import { describe, expect, it } from 'vitest';
import { useGateway, type ApiOptions, type ApiResponse, type GatewayHarness, type Lang } from '../support/gateway.js';
import { expectError, expectInvalidParams, NO_ROUTE } from '../support/expect.js';

const FORBIDDEN_401 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } };
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

type Kind = 'venue' | 'organizer';
type Json = Record<string, any>;

interface KindInfo {
  kind: Kind;
  /** The collection segment: `venues` or `organizers`. */
  path: string;
  /** A payload with every optional text field set (seed/venue.json, seed/organizer.json). */
  full: (name: string) => Json;
  /** The keys of a create response for `full`, in TEC's order, plus our `lang`. */
  fullKeys: string[];
  /** The keys of a create response for a name only. */
  bareKeys: string[];
}

const HEAD = ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url'];
const GLOBAL = ['global_id', 'global_id_lineage', 'lang'];

const VENUE: KindInfo = {
  kind: 'venue',
  path: 'venues',
  full: (name) => ({
    venue: name,
    description: 'Main hall',
    address: '1 Loop Road',
    city: 'Springfield',
    country: 'United States',
    state: 'IL',
    zip: '62701',
    phone: '+1 555 0100',
    website: 'http://example.com/hall',
    stateprovince: 'IL',
  }),
  // seed/venue.json
  fullKeys: [...HEAD, 'venue', 'description', 'slug', 'address', 'city', 'country', 'state', 'zip', 'phone', 'website', 'stateprovince', 'show_map', 'show_map_link', ...GLOBAL],
  bareKeys: [...HEAD, 'venue', 'slug', 'show_map', 'show_map_link', ...GLOBAL],
};

const ORGANIZER: KindInfo = {
  kind: 'organizer',
  path: 'organizers',
  full: (name) => ({
    organizer: name,
    description: 'Organizes things',
    phone: '+1 555 0199',
    website: 'http://example.com/org',
    email: 'org@example.com',
  }),
  // seed/organizer.json
  fullKeys: [...HEAD, 'organizer', 'description', 'slug', 'phone', 'website', 'email', ...GLOBAL],
  bareKeys: [...HEAD, 'organizer', 'slug', ...GLOBAL],
};

const KINDS = [VENUE, ORGANIZER];

/** A field both kinds have and that can be cleared (not the name). */
const CLEARABLE = 'phone';

/** Small request helpers bound to one gateway. */
function client(gw: GatewayHarness) {
  const api = <T = any>(method: string, path: string, opts?: ApiOptions): Promise<ApiResponse<T>> => gw.api<T>(method, path, opts);

  /** POST as an editor and expect 201. */
  async function create(k: KindInfo, body: Json, lang: Lang = 'en'): Promise<Json> {
    const res = await api('POST', `/${k.path}`, { body, token: 'editor', lang });
    expect(res.status, res.text).toBe(201);
    return res.body as Json;
  }

  async function createEvent(body: Json): Promise<Json> {
    const res = await api('POST', '/events', {
      token: 'editor',
      body: { title: 'Linked event', start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 12:00:00', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as Json;
  }

  return { api, create, createEvent };
}

const globalId = (id: number) => `127.0.0.1?id=${id}`;

// ---------------------------------------------------------------------------------------------

describe('venues and organizers: create, read, update, delete', () => {
  const gw = useGateway();
  const { api, create, createEvent } = client(gw);

  for (const k of KINDS) {
    const { kind, path } = k;
    const name = kind; // the name field: `venue` or `organizer`

    describe(`${path}: create`, () => {
      it(`creates a ${kind} (201) with TEC's keys in TEC's order, plus lang`, async () => {
        const res = await api('POST', `/${path}`, { body: k.full(`Anchor ${kind}`), token: 'editor' });
        expect(res.status, res.text).toBe(201);
        expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
        const b = res.body;
        expect(Object.keys(b)).toEqual(k.fullKeys);
        expect(Number.isInteger(b.id)).toBe(true);
        expect(b.id).toBeGreaterThan(0);
        expect(b.author).toMatch(/^\d+$/);
        expect(b.status).toBe('publish');
        expect(b.date).toMatch(DATE_TIME);
        expect(b.date_utc).toBe(b.date); // the site zone is UTC
        expect(b.modified).toBe(b.date);
        expect(b.modified_utc).toBe(b.date);
        expect(b.slug).toBe(`anchor-${kind}`);
        expect(b.url).toBe(`${gw.origin}/${kind}/anchor-${kind}/`);
        expect(b[name]).toBe(`Anchor ${kind}`);
        expect(b.description).toBe(kind === 'venue' ? '<p>Main hall</p>' : '<p>Organizes things</p>');
        expect(b.global_id).toBe(globalId(b.id));
        expect(b.global_id_lineage).toEqual([globalId(b.id)]);
        expect(b.lang).toBe('en');
        expect(b).not.toHaveProperty('json_ld');
        const sent = k.full('x');
        for (const field of Object.keys(sent)) if (field !== name && field !== 'description') expect(b[field], field).toBe(sent[field]);
        if (kind === 'venue') {
          expect(b.show_map).toBe(true);
          expect(b.show_map_link).toBe(true);
        }
      });

      it('drops empty fields from the output (no key at all)', async () => {
        const body: Json = { [name]: `Bare ${kind}`, description: '', phone: '', website: '' };
        if (kind === 'venue') Object.assign(body, { city: '', address: '', zip: '' });
        else body.email = '';
        const b = await create(k, body);
        expect(Object.keys(b)).toEqual(k.bareKeys);
        expect(b).not.toHaveProperty('city');
        expect(b).not.toHaveProperty('description');
        expect(b).not.toHaveProperty('image');
      });

      it('deduplicates as TEC: the same payload twice is one record; another description makes x-2, x-3', async () => {
        const body = k.full(`Twin ${kind}`);
        const a = await create(k, body);
        const again = await create(k, body);
        expect(again.id).toBe(a.id);
        const b = await create(k, { [name]: `Twin ${kind}`, description: 'Another one' });
        const c = await create(k, { [name]: `Twin ${kind}`, description: 'A third one' });
        expect(new Set([a.id, b.id, c.id]).size).toBe(3);
        expect([a.slug, b.slug, c.slug]).toEqual([`twin-${kind}`, `twin-${kind}-2`, `twin-${kind}-3`]);
        expect(b.url).toBe(`${gw.origin}/${kind}/twin-${kind}-2/`);
        // Each one is its own record.
        const got = await api('GET', `/${path}/${b.id}`);
        expect(got.status).toBe(200);
        expect(got.body.slug).toBe(`twin-${kind}-2`);
      });

      it(`a missing ${name} is 400 rest_missing_callback_param`, async () => {
        const res = await api('POST', `/${path}`, { body: { description: 'no name' }, token: 'editor' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'rest_missing_callback_param',
          message: `Missing parameter(s): ${name}`,
          data: { status: 400, params: [name] },
        });
      });

      it(`an empty ${name} is 400 rest_invalid_param`, async () => {
        expectInvalidParams(await api('POST', `/${path}`, { body: { [name]: '' }, token: 'editor' }), name);
        expectInvalidParams(await api('POST', `/${path}`, { body: { [name]: '   ' }, token: 'editor' }), name);
      });

      it('a website that is not a URL is 400 naming website', async () => {
        const res = await api('POST', `/${path}`, { body: { [name]: 'Bad site', website: 'not a url' }, token: 'editor' });
        expectInvalidParams(res, 'website');
      });

      it('anonymous create is 401 rest_forbidden, before validation', async () => {
        const valid = await api('POST', `/${path}`, { body: { [name]: 'Nope' } });
        expect(valid.status).toBe(401);
        expect(valid.body).toEqual(FORBIDDEN_401);
        const invalid = await api('POST', `/${path}`, { body: { website: 'not a url' } });
        expect(invalid.status).toBe(401);
        expect(invalid.body).toEqual(FORBIDDEN_401);
        const badToken = await api('POST', `/${path}`, { body: { [name]: 'Nope' }, token: 'not.a.token' });
        expect(badToken.status).toBe(401);
        expect(badToken.body.code).toBe('rest_forbidden');
      });

      it('ml_language in the body sets the record language', async () => {
        const b = await create(k, { [name]: `Body lang ${kind}`, ml_language: 'lt' });
        expect(b.lang).toBe('lt');
        expect((await api('GET', `/${path}/by-slug/${b.slug}`, { lang: 'lt' })).body.id).toBe(b.id);
        expectInvalidParams(await api('GET', `/${path}/by-slug/${b.slug}`, { lang: 'en' }), 'slug');
        expectInvalidParams(await api('POST', `/${path}`, { body: { [name]: 'Bad lang', ml_language: 'de' }, token: 'editor' }), 'ml_language');
      });

      it('a malformed JSON body is 400 rest_invalid_json for editors, 401 for anonymous callers', async () => {
        const bad = await api('POST', `/${path}`, { body: '{"oops": ', token: 'editor' });
        expectError(bad, 400, 'rest_invalid_json');
        const anon = await api('POST', `/${path}`, { body: '{"oops": ' });
        expect(anon.status).toBe(401);
        expect(anon.body).toEqual(FORBIDDEN_401);
      });

      it('accepts a form-encoded body', async () => {
        const res = await api('POST', `/${path}`, { form: { [name]: `Form ${kind}`, phone: '+370 5 123' }, token: 'editor' });
        expect(res.status, res.text).toBe(201);
        expect(res.body[name]).toBe(`Form ${kind}`);
        expect(res.body.phone).toBe('+370 5 123');
        expect(res.body.slug).toBe(`form-${kind}`);
      });

      it('ignores unknown extra parameters', async () => {
        const b = await create(k, { [name]: `Extra ${kind}`, timezone: 'Europe/Vilnius', nonsense: 1 });
        expect(Object.keys(b)).toEqual(k.bareKeys);
      });
    });

    describe(`${path}: read`, () => {
      it('GET by id is 200 with json_ld; by slug gives the same object', async () => {
        const made = await create(k, k.full(`Readable ${kind}`));
        const res = await api('GET', `/${path}/${made.id}`);
        expect(res.status, res.text).toBe(200);
        const b = res.body;
        // json_ld sits where TEC puts it: after the fields, before the flags / global ids.
        const keys = [...k.fullKeys];
        keys.splice(keys.indexOf(kind === 'venue' ? 'show_map' : 'global_id'), 0, 'json_ld');
        expect(Object.keys(b)).toEqual(keys);
        const { json_ld, ...rest } = b;
        expect(rest).toEqual(made);
        if (kind === 'venue') {
          expect(json_ld).toMatchObject({
            '@type': 'Place',
            name: 'Readable venue',
            address: {
              '@type': 'PostalAddress',
              streetAddress: '1 Loop Road',
              addressLocality: 'Springfield',
              addressRegion: 'IL',
              postalCode: '62701',
              addressCountry: 'United States',
            },
            telephone: '+1 555 0100',
            sameAs: 'http://example.com/hall',
          });
        } else {
          expect(json_ld).toMatchObject({
            '@type': 'Person',
            name: 'Readable organizer',
            url: 'http://example.com/org',
            telephone: '+1 555 0199',
            sameAs: 'http://example.com/org',
          });
        }
        const bySlug = await api('GET', `/${path}/by-slug/${made.slug}`);
        expect(bySlug.status, bySlug.text).toBe(200);
        expect(bySlug.body).toEqual(b);
      });

      it('an unknown id is 400 rest_invalid_param', async () => {
        expectInvalidParams(await api('GET', `/${path}/987654`), 'id');
      });

      it(`an event's id, or the other kind's id, under /${path} is 400`, async () => {
        const event = await createEvent({ title: `Not a ${kind}` });
        expectInvalidParams(await api('GET', `/${path}/${event.id}`), 'id');
        const other = kind === 'venue' ? ORGANIZER : VENUE;
        const o = await create(other, { [other.kind]: `Other of ${kind}` });
        expectInvalidParams(await api('GET', `/${path}/${o.id}`), 'id');
      });

      it('a non-numeric id is 404 rest_no_route', async () => {
        for (const id of ['foo', 'foo-bar', '12a', '-1']) {
          const res = await api('GET', `/${path}/${id}`);
          expect(res.status, id).toBe(404);
          expect(res.body, id).toEqual(NO_ROUTE);
        }
      });

      it('an unknown slug is 400', async () => {
        expectInvalidParams(await api('GET', `/${path}/by-slug/no-such-${kind}`), 'slug');
      });

      it(`a trashed ${kind} is 403 ${kind}-not-accessible`, async () => {
        const made = await create(k, { [name]: `Trashed read ${kind}` });
        expect((await api('DELETE', `/${path}/${made.id}`, { token: 'editor' })).status).toBe(200);
        const res = await api('GET', `/${path}/${made.id}`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: `${kind}-not-accessible`, message: `The requested ${kind} is not accessible`, data: { status: 403 } });
      });

      it(`a draft ${kind} is 403 for anonymous callers and 200 for editors`, async () => {
        const made = await create(k, { [name]: `Draft ${kind}`, status: 'draft' });
        expect(made.status).toBe('draft');
        const anon = await api('GET', `/${path}/${made.id}`);
        expectError(anon, 403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`);
        const editor = await api('GET', `/${path}/${made.id}`, { token: 'editor' });
        expect(editor.status).toBe(200);
        expect(editor.body.status).toBe('draft');
      });

      it('a ru record is found by id under /en/ but by slug only in its own language', async () => {
        const ru = await create(k, { [name]: `Русский ${kind}` }, 'ru');
        expect(ru.lang).toBe('ru');
        expect(ru.slug).toMatch(/^[a-z0-9-]+$/);
        const byId = await api('GET', `/${path}/${ru.id}`, { lang: 'en' });
        expect(byId.status).toBe(200);
        expect(byId.body.id).toBe(ru.id);
        expect(byId.body.lang).toBe('ru');
        expectInvalidParams(await api('GET', `/${path}/by-slug/${ru.slug}`, { lang: 'en' }), 'slug');
        const inRu = await api('GET', `/${path}/by-slug/${ru.slug}`, { lang: 'ru' });
        expect(inRu.status).toBe(200);
        expect(inRu.body.id).toBe(ru.id);
        const override = await api('GET', `/${path}/by-slug/${ru.slug}`, { lang: 'en', query: { ml_language: 'ru' } });
        expect(override.status).toBe(200);
        expect(override.body.id).toBe(ru.id);
      });

      it('ml_language other than en|lt|ru is 400 rest_invalid_param', async () => {
        expectInvalidParams(await api('GET', `/${path}`, { query: { ml_language: 'xx' } }), 'ml_language');
      });
    });

    describe(`${path}: update`, () => {
      it('POST, PUT and PATCH are all partial updates (200)', async () => {
        const made = await create(k, k.full(`Partial ${kind}`));
        const patched = await api('PATCH', `/${path}/${made.id}`, { body: { phone: '+1 000' }, token: 'editor' });
        expect(patched.status, patched.text).toBe(200);
        expect(patched.body.phone).toBe('+1 000');
        expect(patched.body.website).toBe(made.website);
        const put = await api('PUT', `/${path}/${made.id}`, { body: { website: 'https://example.org/new' }, token: 'editor' });
        expect(put.status, put.text).toBe(200);
        expect(put.body.website).toBe('https://example.org/new');
        expect(put.body.phone).toBe('+1 000');
        const post = await api('POST', `/${path}/${made.id}`, { body: { description: 'Changed' }, token: 'editor' });
        expect(post.status, post.text).toBe(200);
        expect(post.body.description).toMatch(/^<p>Changed<\/p>\n?$/);
        // Everything not sent kept its value, the key order is unchanged.
        const got = await api('GET', `/${path}/${made.id}`);
        const { json_ld: _ld, ...now } = got.body;
        expect(Object.keys(now)).toEqual(k.fullKeys);
        expect(now).toMatchObject({
          ...Object.fromEntries(Object.entries(made).filter(([f]) => !['description', 'phone', 'website', 'modified', 'modified_utc'].includes(f))),
          phone: '+1 000',
          website: 'https://example.org/new',
        });
        expect(now.id).toBe(made.id);
        expect(now.date).toBe(made.date);
        expect(now.slug).toBe(made.slug);
      });

      it('an empty string clears a field: its key disappears', async () => {
        const made = await create(k, k.full(`Clearing ${kind}`));
        const body: Json = { [CLEARABLE]: '', website: '' };
        if (kind === 'venue') body.city = '';
        const res = await api('POST', `/${path}/${made.id}`, { body, token: 'editor' });
        expect(res.status, res.text).toBe(200);
        expect(res.body).not.toHaveProperty(CLEARABLE);
        expect(res.body).not.toHaveProperty('website');
        expect(res.body).not.toHaveProperty('city');
        const got = await api('GET', `/${path}/${made.id}`);
        expect(got.body).not.toHaveProperty(CLEARABLE);
        expect(got.body).not.toHaveProperty('website');
        expect(got.body).not.toHaveProperty('city');
        expect(got.body.description).toBe(made.description);
      });

      it('a status change through an update is applied (publish -> draft -> publish)', async () => {
        const made = await create(k, { [name]: `Status ${kind}` });
        const draft = await api('PATCH', `/${path}/${made.id}`, { body: { status: 'draft' }, token: 'editor' });
        expect(draft.status, draft.text).toBe(200);
        expect(draft.body.status).toBe('draft');
        expectError(await api('GET', `/${path}/${made.id}`), 403, `${kind}-not-accessible`);
        const back = await api('PATCH', `/${path}/${made.id}`, { body: { status: 'publish' }, token: 'editor' });
        expect(back.body.status).toBe('publish');
        expect((await api('GET', `/${path}/${made.id}`)).status).toBe(200);
      });

      it('renaming keeps the slug', async () => {
        const made = await create(k, { [name]: `Before ${kind}` });
        const res = await api('PATCH', `/${path}/${made.id}`, { body: { [name]: `After ${kind}` }, token: 'editor' });
        expect(res.status).toBe(200);
        expect(res.body[name]).toBe(`After ${kind}`);
        expect(res.body.slug).toBe(`before-${kind}`);
      });

      it('an empty name or a bad website is 400 and changes nothing', async () => {
        const made = await create(k, k.full(`Guarded ${kind}`));
        expectInvalidParams(await api('PATCH', `/${path}/${made.id}`, { body: { [name]: '' }, token: 'editor' }), name);
        expectInvalidParams(await api('PATCH', `/${path}/${made.id}`, { body: { website: 'nope' }, token: 'editor' }), 'website');
        const got = await api('GET', `/${path}/${made.id}`);
        expect(got.body[name]).toBe(`Guarded ${kind}`);
        expect(got.body.website).toBe(made.website);
      });

      it('an unknown id is 400; anonymous is 401 even for an unknown id', async () => {
        expectInvalidParams(await api('PATCH', `/${path}/987654`, { body: { phone: '1' }, token: 'editor' }), 'id');
        const made = await create(k, { [name]: `Locked ${kind}` });
        for (const id of [made.id, 987654]) {
          const res = await api('PATCH', `/${path}/${id}`, { body: { phone: '1' } });
          expect(res.status).toBe(401);
          expect(res.body).toEqual(FORBIDDEN_401);
        }
        const got = await api('GET', `/${path}/${made.id}`);
        expect(got.body).not.toHaveProperty('phone');
      });

      it('updates by slug (200); an unknown slug is 400', async () => {
        const made = await create(k, { [name]: `Slugged ${kind}` });
        const res = await api('PUT', `/${path}/by-slug/${made.slug}`, { body: { phone: '+44 1' }, token: 'editor' });
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(made.id);
        expect(res.body.phone).toBe('+44 1');
        expect((await api('GET', `/${path}/${made.id}`)).body.phone).toBe('+44 1');
        expectInvalidParams(await api('PATCH', `/${path}/by-slug/nothing-${kind}`, { body: { phone: '1' }, token: 'editor' }), 'slug');
        expect((await api('PATCH', `/${path}/by-slug/${made.slug}`, { body: { phone: '1' } })).status).toBe(401);
      });
    });

    describe(`${path}: delete`, () => {
      it('DELETE trashes (200, status trash); a second DELETE is 410', async () => {
        const made = await create(k, k.full(`Doomed ${kind}`));
        const res = await api('DELETE', `/${path}/${made.id}`, { token: 'editor' });
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(made.id);
        expect(res.body.status).toBe('trash');
        expect(res.body[name]).toBe(`Doomed ${kind}`);
        expect(res.body).not.toHaveProperty('json_ld');
        const again = await api('DELETE', `/${path}/${made.id}`, { token: 'editor' });
        expect(again.status).toBe(410);
        expect(again.body).toEqual({ code: `${kind}-is-in-trash`, message: `The ${kind} is already trashed`, data: { status: 410 } });
        expectError(await api('GET', `/${path}/${made.id}`), 403, `${kind}-not-accessible`);
      });

      it('force=true deletes permanently; then GET and DELETE are 400', async () => {
        const made = await create(k, { [name]: `Gone ${kind}` });
        const res = await api('DELETE', `/${path}/${made.id}`, { token: 'editor', query: { force: 'true' } });
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(made.id);
        expectInvalidParams(await api('GET', `/${path}/${made.id}`), 'id');
        expectInvalidParams(await api('DELETE', `/${path}/${made.id}`, { token: 'editor' }), 'id');
        expectInvalidParams(await api('GET', `/${path}/by-slug/${made.slug}`), 'slug');
      });

      it('force=true also deletes a trashed record permanently', async () => {
        const made = await create(k, { [name]: `Trash then gone ${kind}` });
        expect((await api('DELETE', `/${path}/${made.id}`, { token: 'editor' })).status).toBe(200);
        const res = await api('DELETE', `/${path}/${made.id}`, { token: 'editor', query: { force: true } });
        expect(res.status, res.text).toBe(200);
        expectInvalidParams(await api('GET', `/${path}/${made.id}`), 'id');
      });

      it(`trashing a ${kind} removes it from its events`, async () => {
        const place = await create(k, k.full(`Linked ${kind}`));
        const other = await create(k, { [name]: `Staying ${kind}` });
        const field = kind === 'venue' ? 'venue' : 'organizer';
        const event = await createEvent({ title: `Event at ${kind}`, [field]: kind === 'venue' ? place.id : [place.id, other.id] });
        const before = await api('GET', `/events/${event.id}`);
        expect(before.status).toBe(200);
        if (kind === 'venue') expect(before.body.venue.id).toBe(place.id);
        else expect(before.body.organizer.map((o: Json) => o.id)).toEqual([place.id, other.id]);

        expect((await api('DELETE', `/${path}/${place.id}`, { token: 'editor' })).status).toBe(200);
        const after = await api('GET', `/events/${event.id}`);
        expect(after.status).toBe(200);
        if (kind === 'venue') expect(after.body.venue).toEqual([]);
        else expect(after.body.organizer.map((o: Json) => o.id)).toEqual([other.id]);
        // The event itself is otherwise intact.
        expect(after.body.title).toBe(`Event at ${kind}`);
        // The link is gone for good, not just hidden: restoring the record does not bring it back.
        const restored = await api('PATCH', `/${path}/${place.id}`, { body: { status: 'publish' }, token: 'editor' });
        expect(restored.status, restored.text).toBe(200);
        expect(restored.body.status).toBe('publish');
        const later = await api('GET', `/events/${event.id}`);
        if (kind === 'venue') expect(later.body.venue).toEqual([]);
        else expect(later.body.organizer.map((o: Json) => o.id)).toEqual([other.id]);
      });

      it(`force-deleting a ${kind} also removes it from its events`, async () => {
        const place = await create(k, { [name]: `Force linked ${kind}` });
        const field = kind === 'venue' ? 'venue' : 'organizer';
        const event = await createEvent({ title: `Force event at ${kind}`, [field]: place.id });
        expect((await api('DELETE', `/${path}/${place.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
        const after = await api('GET', `/events/${event.id}`);
        expect(after.status).toBe(200);
        expect(after.body[field]).toEqual([]);
      });

      it('a trashed record frees its slug for a new record', async () => {
        const first = await create(k, { [name]: `Recycled ${kind}` });
        expect((await api('DELETE', `/${path}/${first.id}`, { token: 'editor' })).status).toBe(200);
        const second = await create(k, { [name]: `Recycled ${kind}` });
        expect(second.id).not.toBe(first.id);
        expect(second.slug).toBe(`recycled-${kind}`);
        expect((await api('GET', `/${path}/by-slug/recycled-${kind}`)).body.id).toBe(second.id);
      });

      it('an unknown id is 400; anonymous is 401 before validation', async () => {
        expectInvalidParams(await api('DELETE', `/${path}/987654`, { token: 'editor' }), 'id');
        const unknown = await api('DELETE', `/${path}/987654`);
        expect(unknown.status).toBe(401);
        expect(unknown.body).toEqual(FORBIDDEN_401);
        const made = await create(k, { [name]: `Kept ${kind}` });
        expect((await api('DELETE', `/${path}/${made.id}`)).body).toEqual(FORBIDDEN_401);
        expect((await api('GET', `/${path}/${made.id}`)).body.status).toBe('publish');
      });

      it('deletes by slug (trash); the slug then no longer resolves', async () => {
        const made = await create(k, { [name]: `Slug doomed ${kind}` });
        const res = await api('DELETE', `/${path}/by-slug/${made.slug}`, { token: 'editor' });
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(made.id);
        expect(res.body.status).toBe('trash');
        expectInvalidParams(await api('GET', `/${path}/by-slug/${made.slug}`), 'slug');
        expectError(await api('GET', `/${path}/${made.id}`), 403, `${kind}-not-accessible`);
      });
    });
  }

  describe('venue-only fields', () => {
    it.each([
      ['yes', 'no', true, false],
      ['no', 'yes', false, true],
      ['1', '0', true, false],
      [true, false, true, false],
      [false, true, false, true],
      ['true', 'false', true, false],
    ] as const)("show_map=%j, show_map_link=%j -> %j, %j (docs/tec-behaviour.md §1.9, not TEC's 400)", async (map, link, wantMap, wantLink) => {
      const b = await create(VENUE, { venue: `Map ${String(map)} ${String(link)}`, show_map: map, show_map_link: link });
      expect(b.show_map).toBe(wantMap);
      expect(b.show_map_link).toBe(wantLink);
      // The flags come last, right before the global ids, even when false.
      expect(Object.keys(b).slice(-5)).toEqual(['show_map', 'show_map_link', 'global_id', 'global_id_lineage', 'lang']);
      const got = await api('GET', `/venues/${b.id}`);
      expect(got.body.show_map).toBe(wantMap);
      expect(got.body.show_map_link).toBe(wantLink);
    });

    it('show_map in a form body accepts yes/no', async () => {
      const res = await api('POST', '/venues', { form: { venue: 'Form map', show_map: 'no', show_map_link: 'yes' }, token: 'editor' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.show_map).toBe(false);
      expect(res.body.show_map_link).toBe(true);
    });

    it('a show_map that is not a boolean is 400', async () => {
      expectInvalidParams(await api('POST', '/venues', { body: { venue: 'Maybe map', show_map: 'maybe' }, token: 'editor' }), 'show_map');
    });

    it('flags survive updates that do not send them (docs/tec-behaviour.md §1.2)', async () => {
      const made = await create(VENUE, { venue: 'Flag keeper', show_map: 'no', show_map_link: false });
      const res = await api('POST', `/venues/${made.id}`, { body: { city: 'Vilnius' }, token: 'editor' });
      expect(res.status).toBe(200);
      expect(res.body.show_map).toBe(false);
      expect(res.body.show_map_link).toBe(false);
      const on = await api('PATCH', `/venues/${made.id}`, { body: { show_map: 'yes' }, token: 'editor' });
      expect(on.body.show_map).toBe(true);
      expect(on.body.show_map_link).toBe(false);
    });

    it('geo_lat and geo_lng are accepted and shown after stateprovince', async () => {
      const b = await create(VENUE, { ...VENUE.full('Geo hall'), geo_lat: 54.6872, geo_lng: 25.2797 });
      const keys = [...VENUE.fullKeys];
      keys.splice(keys.indexOf('stateprovince') + 1, 0, 'geo_lat', 'geo_lng');
      expect(Object.keys(b)).toEqual(keys);
      expect(b.geo_lat).toBe(54.6872);
      expect(b.geo_lng).toBe(25.2797);
      const got = await api('GET', `/venues/${b.id}`);
      expect(got.body.geo_lat).toBe(54.6872);
      expect(got.body.geo_lng).toBe(25.2797);
      expect(got.body.json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 54.6872, longitude: 25.2797 });
      // Form bodies carry them as strings.
      const form = await api('POST', '/venues', { form: { venue: 'Geo form', geo_lat: '-33.5', geo_lng: '151.25' }, token: 'editor' });
      expect(form.status, form.text).toBe(201);
      expect(form.body.geo_lat).toBe(-33.5);
      expect(form.body.geo_lng).toBe(151.25);
    });

    it('a venue without coordinates has no geo keys', async () => {
      const b = await create(VENUE, { venue: 'No geo' });
      expect(b).not.toHaveProperty('geo_lat');
      expect(b).not.toHaveProperty('geo_lng');
    });

    it('out-of-range or non-numeric coordinates are 400', async () => {
      expectInvalidParams(await api('POST', '/venues', { body: { venue: 'Far', geo_lat: 91 }, token: 'editor' }), 'geo_lat');
      expectInvalidParams(await api('POST', '/venues', { body: { venue: 'Far', geo_lng: 'east' }, token: 'editor' }), 'geo_lng');
    });
  });

  describe('organizer-only fields', () => {
    it('a bad email is 400 naming email', async () => {
      for (const email of ['nope', 'a@', 'two words@example.com']) {
        expectInvalidParams(await api('POST', '/organizers', { body: { organizer: 'Bad mail', email }, token: 'editor' }), 'email');
      }
      const made = await create(ORGANIZER, { organizer: 'Mail later' });
      expectInvalidParams(await api('PATCH', `/organizers/${made.id}`, { body: { email: 'nope' }, token: 'editor' }), 'email');
    });

    it('an empty email clears it', async () => {
      const made = await create(ORGANIZER, ORGANIZER.full('Mail clear'));
      expect(made.email).toBe('org@example.com');
      const res = await api('PATCH', `/organizers/${made.id}`, { body: { email: '' }, token: 'editor' });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('email');
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('venue and organizer lists', () => {
  const gw = useGateway();
  const { api, create } = client(gw);

  for (const k of KINDS) {
    const { kind, path } = k;
    const name = kind;

    describe(`GET /${path}`, () => {
      it('an empty list is 200 with [], 0, 0', async () => {
        const res = await api('GET', `/${path}`, { lang: 'lt' });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual([path, 'rest_url', 'total', 'total_pages']);
        expect(res.body[path]).toEqual([]);
        expect(res.body.total).toBe(0);
        expect(res.body.total_pages).toBe(0);
        expect(res.headers.get('x-tec-total')).toBe('0');
        expect(res.headers.get('x-tec-totalpages')).toBe('0');
        expect(res.body.rest_url.startsWith(`${gw.url(`/${path}/`, 'lt')}?`)).toBe(true);
      });

      it('lists newest first with the TEC envelope, pages and headers', async () => {
        const oldest = await create(k, { [name]: `Oldest ${kind}`, date: '2020-01-01 10:00:00' });
        const middle = await create(k, { ...k.full(`Middle ${kind}`), date: '2021-06-01 10:00:00' });
        const newest = await create(k, { [name]: `Newest ${kind}` });
        expect(oldest.date).toBe('2020-01-01 10:00:00');

        const all = await api('GET', `/${path}`);
        expect(all.status).toBe(200);
        expect(Object.keys(all.body)).toEqual([path, 'rest_url', 'total', 'total_pages']);
        expect(all.body[path].map((p: Json) => p.id)).toEqual([newest.id, middle.id, oldest.id]);
        expect(all.body.total).toBe(3);
        expect(all.body.total_pages).toBe(1);
        expect(all.headers.get('x-tec-total')).toBe('3');
        expect(all.headers.get('x-tec-totalpages')).toBe('1');
        // List items are the full objects without json_ld.
        expect(all.body[path][2]).toEqual(oldest);
        for (const item of all.body[path]) expect(item).not.toHaveProperty('json_ld');
        const restUrl = new URL(all.body.rest_url);
        expect(`${restUrl.origin}${restUrl.pathname}`).toBe(gw.url(`/${path}/`));
        expect(restUrl.searchParams.get('page')).toBe('1');

        const p1 = await api('GET', `/${path}`, { query: { per_page: 2 } });
        expect(p1.status).toBe(200);
        expect(Object.keys(p1.body)).toEqual([path, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
        expect(p1.body[path].map((p: Json) => p.id)).toEqual([newest.id, middle.id]);
        expect(p1.body.total).toBe(3);
        expect(p1.body.total_pages).toBe(2);
        expect(p1.headers.get('x-tec-total')).toBe('3');
        expect(p1.headers.get('x-tec-totalpages')).toBe('2');
        const next = new URL(p1.body.next_rest_url);
        expect(`${next.origin}${next.pathname}`).toBe(gw.url(`/${path}/`));
        expect(next.searchParams.get('page')).toBe('2');
        expect(next.searchParams.get('per_page')).toBe('2');

        const p2 = await api('GET', p1.body.next_rest_url);
        expect(p2.status, p2.text).toBe(200);
        expect(Object.keys(p2.body)).toEqual([path, 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
        expect(p2.body[path].map((p: Json) => p.id)).toEqual([oldest.id]);
        expect(p2.body.total).toBe(3);
        const back = await api('GET', p2.body.previous_rest_url);
        expect(back.status).toBe(200);
        expect(back.body[path].map((p: Json) => p.id)).toEqual([newest.id, middle.id]);

        const beyond = await api('GET', `/${path}`, { query: { per_page: 2, page: 3 } });
        expect(beyond.status).toBe(404);
        expect(beyond.body).toEqual({
          code: `${kind}-archive-page-not-found`,
          message: `The requested ${kind} archive page does not exist`,
          data: { status: 404 },
        });
      });

      it('does not list records of another language, unless ml_language asks for it', async () => {
        const ru = await create(k, { [name]: `Ru list ${kind}` }, 'ru');
        const en = await api('GET', `/${path}`, { query: { per_page: 50 } });
        expect(en.body[path].map((p: Json) => p.id)).not.toContain(ru.id);
        for (const item of en.body[path]) expect(item.lang).toBe('en');
        const inRu = await api('GET', `/${path}`, { lang: 'ru' });
        expect(inRu.status).toBe(200);
        expect(inRu.body[path].map((p: Json) => p.id)).toEqual([ru.id]);
        expect(inRu.body.total).toBe(1);
        expect(new URL(inRu.body.rest_url).pathname).toBe(`/ru/tribe/events/v1/${path}/`);
        const override = await api('GET', `/${path}`, { lang: 'en', query: { ml_language: 'ru' } });
        expect(override.body[path].map((p: Json) => p.id)).toEqual([ru.id]);
      });

      it('hides drafts and trashed records from anonymous callers; editors see drafts', async () => {
        const draft = await create(k, { [name]: `Draft list ${kind}`, status: 'draft' }, 'lt');
        const live = await create(k, { [name]: `Live list ${kind}` }, 'lt');
        const trashed = await create(k, { [name]: `Trashed list ${kind}` }, 'lt');
        expect((await api('DELETE', `/${path}/${trashed.id}`, { token: 'editor' })).status).toBe(200);
        const anon = await api('GET', `/${path}`, { lang: 'lt' });
        expect(anon.body[path].map((p: Json) => p.id)).toEqual([live.id]);
        expect(anon.body.total).toBe(1);
        const editor = await api('GET', `/${path}`, { lang: 'lt', token: 'editor' });
        expect(editor.body[path].map((p: Json) => p.id).sort()).toEqual([draft.id, live.id].sort());
        expect(editor.body.total).toBe(2);
        // Clean up so the empty-list test in lt stays meaningful if run after.
        for (const p of [draft, live, trashed]) await api('DELETE', `/${path}/${p.id}`, { token: 'editor', query: { force: true } });
      });

      it('rejects bad paging parameters with 400', async () => {
        const bad: [string, string | number][] = [
          ['page', 0],
          ['page', 'abc'],
          ['per_page', 0],
          ['per_page', -3],
          ['per_page', 'x'],
        ];
        for (const [param, value] of bad) {
          const res = await api('GET', `/${path}`, { query: { [param]: value } });
          expectInvalidParams(res, param);
        }
      });
    });
  }
});

describe('per_page cap', () => {
  const gw = useGateway();
  const { api, create } = client(gw);

  it('per_page is capped at 50', async () => {
    const made: Json[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const n = batch < 5 ? 10 : 1;
      made.push(...(await Promise.all(Array.from({ length: n }, (_, i) => create(ORGANIZER, { organizer: `Cap ${batch}-${i}` })))));
    }
    expect(made).toHaveLength(51);
    const res = await api('GET', '/organizers', { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.organizers).toHaveLength(50);
    expect(res.body.total).toBe(51);
    expect(res.body.total_pages).toBe(2);
    expect(res.headers.get('x-tec-totalpages')).toBe('2');
    expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    const p2 = await api('GET', '/organizers', { query: { per_page: 100, page: 2 } });
    expect(p2.status).toBe(200);
    expect(p2.body.organizers).toHaveLength(1);
    const seen = new Set([...res.body.organizers, ...p2.body.organizers].map((o: Json) => o.id));
    expect(seen).toEqual(new Set(made.map((o) => o.id)));
    // The default page size is 9.
    const dflt = await api('GET', '/organizers');
    expect(dflt.body.organizers).toHaveLength(9);
    expect(dflt.body.total_pages).toBe(6);
  });
});

describe('venue and organizer list filters (docs/tec-behaviour.md §4.2)', () => {
  const gw = useGateway();
  const { api, create, createEvent } = client(gw);

  for (const k of KINDS) {
    const { kind, path } = k;
    const name = kind;
    const listed = async (query: Json) => {
      const res = await api('GET', `/${path}`, { query: { per_page: 50, ...query } });
      expect(res.status, res.text).toBe(200);
      return (res.body[path] as Json[]).map((p) => p.id);
    };

    it(`search matches ${kind} fields case-insensitively`, async () => {
      const full = await create(k, k.full(`Searchable ${kind}`));
      const other = await create(k, { [name]: `Unrelated ${kind}`, phone: '+1 999' });
      expect(await listed({ search: 'SEARCHABLE' })).toEqual([full.id]);
      // A field other than the name: the city for venues, the e-mail for organizers.
      expect(await listed({ search: kind === 'venue' ? 'springfield' : 'org@example' })).toEqual([full.id]);
      expect(await listed({ search: 'nothing-like-this' })).toEqual([]);
      expect(await listed({ search: 'unrelated' })).toEqual([other.id]);
      expectInvalidParams(await api('GET', `/${path}`, { query: { search: '' } }), 'search');
    });

    it(`event limits the list to the ${path} of that event; an unknown event is 400`, async () => {
      const linked = await create(k, { [name]: `Event-linked ${kind}` });
      await create(k, { [name]: `Event-free ${kind}` });
      const event = await createEvent({ [kind]: kind === 'venue' ? linked.id : [linked.id] });
      expect(await listed({ event: event.id })).toEqual([linked.id]);
      expectInvalidParams(await api('GET', `/${path}`, { query: { event: 987654 } }), 'event');
    });

    it('has_events=true / false split the records with and without events', async () => {
      const all = await listed({});
      const withEvents = await listed({ has_events: true });
      const without = await listed({ has_events: false });
      expect(withEvents.length).toBeGreaterThan(0);
      expect(without.length).toBeGreaterThan(0);
      expect([...withEvents, ...without].sort()).toEqual([...all].sort());
      const lonely = await create(k, { [name]: `Lonely ${kind}` });
      expect(await listed({ has_events: 'false' })).toContain(lonely.id);
      expect(await listed({ has_events: 'true' })).not.toContain(lonely.id);
    });
  }
});
