// No request may change how another is handled: keys that name the prototype chain
// (`__proto__`, `constructor`, `prototype`) in a query string, a form body or a JSON body, at any
// depth, are dropped. Each hostile request is followed by ordinary requests of other callers that
// must behave exactly as on a fresh server. This file has its own process (vitest forks), so a
// polluted Object.prototype could not leak into other test files.
import { request } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseFormLike } from '#lib/http/codec.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor } from '../support/expect.js';

const gw = useGateway();
const soon = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
};
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: soon(3, 10),
  end_date: soon(3, 12),
  ...extra,
});

/** What ordinary callers see; compared before and after each hostile request. */
async function ordinaryBehaviour() {
  const list = await gw.api('GET', '/events');
  const created = await gw.api('POST', '/events', { token: 'editor', body: event('Plain create') });
  const get = await gw.api('GET', `/events/${created.body.id}`);
  const trashed = await gw.api('DELETE', `/events/${created.body.id}`, { token: 'editor' });
  const venues = await gw.api('GET', '/venues');
  return {
    listStatus: list.status,
    listCount: list.body?.events?.length,
    createStatus: created.status,
    createdStatus: created.body?.status,
    getStatus: get.status,
    deleteStatus: trashed.status,
    deletedStatus: trashed.body?.status,
    venuesStatus: venues.status,
  };
}

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort();
const PRISTINE = prototypeKeys();

describe('keys that name the prototype chain', () => {
  let baseline: Awaited<ReturnType<typeof ordinaryBehaviour>>;
  beforeAll(async () => {
    // More than one page's worth of events, so a changed default page size shows.
    for (let i = 0; i < 11; i++) await createAsEditor(gw, '/events', event(`Seed ${i}`));
    baseline = await ordinaryBehaviour();
    expect(baseline).toMatchObject({ listStatus: 200, listCount: 9, createStatus: 201, createdStatus: 'publish', getStatus: 200, deleteStatus: 200 });
  });
  afterEach(() => {
    expect(prototypeKeys()).toEqual(PRISTINE);
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });

  const queries = [
    '__proto__[ml_language]=xx',
    '__proto__[status]=draft',
    '__proto__[per_page]=1',
    '__proto__[x]=1',
    '__proto__[force]=true',
    'constructor[prototype][status]=draft',
    'categories[__proto__][per_page]=1',
    'a[b][__proto__][status]=draft',
    '__proto__=1',
  ];
  for (const q of queries) {
    it(`GET /events?${q} changes nothing for later requests`, async () => {
      const hostile = await gw.api('GET', `/events?${q}`);
      expect(hostile.status).toBeLessThan(500);
      expect(await ordinaryBehaviour()).toEqual(baseline);
    });
  }

  it('a DELETE with ?__proto__[force]=true leaves later plain DELETEs trashing', async () => {
    const doomed = await createAsEditor(gw, '/events', event('Doomed'));
    const hostile = await gw.api('DELETE', `/events/${doomed.id}?__proto__[force]=true`, { token: 'editor' });
    expect(hostile.status).toBe(200);
    expect(hostile.body.status).toBe('trash');
    expect(await ordinaryBehaviour()).toEqual(baseline);
  });

  // JSON.stringify drops a real __proto__ key, so these bodies are written as text.
  const withKeys = (title: string, more: string) => `${JSON.stringify(event(title)).slice(0, -1)},${more}}`;
  const bodies: [string, string][] = [
    ['a top-level __proto__', withKeys('Json proto', '"__proto__":{"status":"draft","per_page":1}')],
    ['constructor.prototype', withKeys('Json constructor', '"constructor":{"prototype":{"status":"draft"}}')],
    ['a nested __proto__ in an inline venue', withKeys('Json nested', '"venue":{"venue":"Hall","__proto__":{"status":"draft"}}')],
  ];
  for (const [name, body] of bodies) {
    it(`a JSON body with ${name} is plain data and changes nothing`, async () => {
      const res = await gw.api('POST', '/events', { token: 'editor', body });
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe('publish');
      expect(await ordinaryBehaviour()).toEqual(baseline);
    });
  }

  it('a form body with __proto__ keys is plain data and changes nothing', async () => {
    const form = new URLSearchParams({ title: 'Form proto', start_date: soon(4, 10), end_date: soon(4, 11) });
    form.append('__proto__[status]', 'draft');
    form.append('venue[venue]', 'Form Hall');
    form.append('venue[__proto__][status]', 'draft');
    const res = await fetch(gw.url('/events'), {
      method: 'POST',
      headers: { authorization: `Bearer ${await gw.token('editor')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const created = (await res.json()) as { status: string };
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(created.status).toBe('publish');
    expect(await ordinaryBehaviour()).toEqual(baseline);
  });
});

/** One request with raw header lines (fetch refuses some names), answered as status and body. */
function rawRequest(url: string, method: string, headers: [string, string][], body?: string): Promise<{ status: number; body: any }> {
  return new Promise((ok, fail) => {
    // Headers given as a list are sent as they are, so Host is named too.
    const req = request(url, { method, headers: [['host', new URL(url).host], ...headers].flat() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('request headers that name the prototype chain', () => {
  const hostile: [string, string][] = [
    ['__proto__', 'x'],
    ['constructor', 'y'],
    ['prototype', 'z'],
  ];
  afterEach(() => expect(prototypeKeys()).toEqual(PRISTINE));

  it('are ordinary headers on reads, as API Gateway passes them', async () => {
    for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
      const res = await rawRequest(gw.url(path), 'GET', hostile);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const docs = await rawRequest(gw.url('/doc'), 'GET', hostile);
    expect(docs.status).toBe(200);
    const missing = await rawRequest(gw.url('/events/999999'), 'GET', hostile);
    expect(missing.status).toBe(404);
  });

  it('are ordinary headers on writes', async () => {
    const token = await gw.token('editor');
    const headers: [string, string][] = [...hostile, ['authorization', `Bearer ${token}`], ['content-type', 'application/json']];
    const created = await rawRequest(gw.url('/events'), 'POST', headers, JSON.stringify(event('Header proto')));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.status).toBe('publish');
    const updated = await rawRequest(gw.url(`/events/${created.body.id}`), 'POST', headers, JSON.stringify({ title: 'Header proto 2' }));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });
});

describe('parseFormLike', () => {
  it('builds objects without a prototype and drops keys that name the prototype chain', () => {
    const out = parseFormLike('__proto__[a]=1&constructor[prototype][b]=2&x[__proto__][c]=3&prototype=4&ok=5');
    expect(Object.getPrototypeOf(out)).toBeNull();
    // A name with such a key anywhere is no variable at all.
    expect(Object.keys(out)).toEqual(['ok']);
    expect(out.x).toBeUndefined();
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it('parses lists and objects as PHP does', () => {
    expect({ ...parseFormLike('a[]=1&a[]=2&b[x]=3&c=4&c=5') }).toEqual({ a: ['1', '2'], b: { x: '3' }, c: '5' });
    expect(JSON.parse(JSON.stringify(parseFormLike('v[0][id]=1&v[1][id]=2')))).toEqual({ v: [{ id: '1' }, { id: '2' }] });
    // PHP registers `a b` as `a_b`.
    expect({ ...parseFormLike('a+b=c+d&e=%26') }).toEqual({ a_b: 'c d', e: '&' });
  });

  it('keeps at most 1,000 parameters, as PHP (max_input_vars)', () => {
    const raw = Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&');
    expect(Object.keys(parseFormLike(raw))).toHaveLength(1000);
  });
});
