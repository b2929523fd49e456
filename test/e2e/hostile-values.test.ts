// No input gets a 5xx: values at the edges of what JavaScript, DynamoDB and Node's HTTP parser
// take are answered like any other bad or odd input, in the WordPress envelope.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { createAsEditor, expectError, expectInvalidParams } from '../support/expect.js';

const gw = useGateway();
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${hour}:00:00`;
const event = (title: string) => ({ title, start_date: at(5, 10), end_date: at(5, 11) });
/** A JSON body written as text, so that it can hold what JSON.stringify cannot produce. */
const jsonText = (title: string, more: string) => `${JSON.stringify(event(title)).slice(0, -1)},${more}}`;

let hallId = 0;
beforeAll(async () => {
  await createAsEditor(gw, '/events', event('One'));
  hallId = (await createAsEditor(gw, '/venues', { venue: 'Hall' })).id;
  await createAsEditor(gw, '/organizers', { organizer: 'Org' });
  await createAsEditor(gw, '/categories', { name: 'Cat' });
  await createAsEditor(gw, '/tags', { name: 'Tag' });
});

describe('a page far past the end', () => {
  const huge = 119304648;
  it("is TEC's 404 for events, venues and organizers", async () => {
    expectError(await gw.api('GET', '/events', { query: { page: huge } }), 404, 'event-archive-page-not-found');
    expectError(await gw.api('GET', '/venues', { query: { page: huge } }), 404, 'venue-archive-page-not-found');
    expectError(await gw.api('GET', '/organizers', { query: { page: huge, per_page: 50 } }), 404, 'organizer-archive-page-not-found');
  });
  it('is an empty 200 for terms, as WordPress answers', async () => {
    for (const path of ['/categories', '/tags']) {
      const res = await gw.api('GET', path, { query: { page: huge } });
      expect(res.status, res.text).toBe(200);
      expect(res.body[path.slice(1)]).toEqual([]);
    }
  });
  it('is 400 when it is no safe integer', async () => {
    expectInvalidParams(await gw.api('GET', '/venues', { query: { page: '9007199254740993' } }), 'page');
  });
});

describe('numbers DynamoDB cannot store', () => {
  it('rounds a coordinate below 1e-12 to 0, on a venue and inline on an event', async () => {
    const venue = await gw.api('POST', '/venues', { token: 'editor', body: '{"venue":"Tiny","geo_lng":1e-200,"geo_lat":-1e-300}' });
    expect(venue.status, venue.text).toBe(201);
    // TEC leaves out venue fields that are 0 (its array_filter), so 0 shows as no coordinate.
    expect(venue.body).not.toHaveProperty('geo_lat');
    expect(venue.body).not.toHaveProperty('geo_lng');
    const inline = await gw.api('POST', '/events', { token: 'editor', body: jsonText('Inline tiny', '"venue":{"venue":"Tiny too","geo_lat":1e-200,"geo_lng":2.5}') });
    expect(inline.status, inline.text).toBe(201);
    expect(inline.body.venue).toMatchObject({ geo_lng: 2.5 });
    expect(inline.body.venue).not.toHaveProperty('geo_lat');
  });
  it('refuses coordinates out of range and numbers JSON makes infinite', async () => {
    expectInvalidParams(await gw.api('POST', '/venues', { token: 'editor', body: '{"venue":"Far","geo_lat":1e309}' }), 'geo_lat');
    expectInvalidParams(await gw.api('POST', '/venues', { token: 'editor', body: '{"venue":"Far","geo_lng":181}' }), 'geo_lng');
  });
});

describe('link and term lists', () => {
  for (const [field, value] of [
    ['categories', '[0.5]'],
    ['categories', '[1e309]'],
    ['categories', '[-0]'],
    ['tags', '[0.5, "name"]'],
    ['tags', '-1'],
    ['venue', '[0.5]'],
    ['venue', '1e309'],
    ['organizer', '[-0]'],
    ['organizer', '[2.5]'],
  ] as const) {
    it(`refuses ${field}: ${value} (a number is an id, a name is a string) and creates nothing`, async () => {
      const before = (await gw.api('GET', '/categories', { query: { per_page: 50 } })).body.categories.length;
      const res = await gw.api('POST', '/events', { token: 'editor', body: jsonText(`Links ${field} ${value}`, `"${field}":${value}`) });
      expectInvalidParams(res, field);
      expect((await gw.api('GET', '/categories', { query: { per_page: 50 } })).body.categories).toHaveLength(before);
      const tags = (await gw.api('GET', '/tags', { query: { per_page: 50 } })).body.tags.map((t: { name: string }) => t.name);
      expect(tags).not.toContain('0.5');
      expect(tags).not.toContain('0');
      expect(tags).not.toContain('Infinity');
    });
  }
  it('still takes names, slugs and id strings', async () => {
    const res = await gw.api('POST', '/events', { token: 'editor', body: { ...event('Names'), categories: ['Cat', 'New name'], tags: ['1.5'] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Cat', 'New name']);
    expect(res.body.tags.map((t: { name: string }) => t.name)).toEqual(['1.5']);
  });
});

describe('text that is not text', () => {
  it("keeps NUL in an editor's title as TEC does, drops it for a contributor (kses), and takes a title of only NUL as empty", async () => {
    expectInvalidParams(await gw.api('POST', '/events', { token: 'editor', body: event('\u0000') }), 'title');
    expectInvalidParams(await gw.api('POST', '/events', { token: 'editor', body: event(' \u0000\u0000 ') }), 'title');
    const ok = await gw.api('POST', '/events', { token: 'editor', body: { ...event('Nul\u0000Title'), description: 'd\u0000x' } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.title).toBe('Nul\u0000Title');
    expect(ok.body.description).toBe('<p>d\u0000x</p>');
    expect(ok.body.slug).toBe('nultitle');
    const contributor = await gw.token('contributor', 'nul-contributor');
    const filtered = await gw.api('POST', '/events', { token: contributor, body: event('Nul\u0000 inside') });
    expect(filtered.status, filtered.text).toBe(201);
    expect(filtered.body.title).toBe('Nul inside');
  });
  it('refuses JSON with a lone surrogate or bytes that are not UTF-8, as WordPress does', async () => {
    const lone = await gw.api('POST', '/events', { token: 'editor', body: jsonText('x', '"description":"a\\ud800b"') });
    expectError(lone, 400, 'rest_invalid_json');
    const lowFirst = await gw.api('POST', '/events', { token: 'editor', body: '{"title":"\\udc00\\ud83d"}' });
    expectError(lowFirst, 400, 'rest_invalid_json');
    const bytes = Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    expectError(await gw.api('POST', '/events', { token: 'editor', body: bytes }), 400, 'rest_invalid_json');
    // A well-formed pair is fine.
    const pair = await gw.api('POST', '/events', { token: 'editor', body: jsonText('Pair', '"excerpt":"\\ud83d\\ude00"') });
    expect(pair.status, pair.text).toBe(201);
    expect(pair.body.excerpt).toContain('\u{1F600}');
  });
});

/** Sends raw bytes to the server and returns what comes back. */
function raw(request: string): Promise<string> {
  const { hostname, port } = new URL(gw.origin);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', fail);
  });
}

describe("requests Node's HTTP parser refuses", () => {
  const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
  it('answer a malformed request line in the WordPress envelope', async () => {
    const res = await raw('GARBAGE\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400 /);
    expect(res.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expect(bodyOf(res)).toEqual({ code: 'rest_bad_request', message: 'The request is not valid HTTP.', data: { status: 400 } });
  });
  it('answer headers that are too large with 431 in the WordPress envelope', async () => {
    const res = await raw(`GET /en/tribe/events/v1/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(res)).toMatchObject({ code: 'rest_headers_too_large', data: { status: 431 } });
  });
});

describe('more of what the fuzzer found', () => {
  it('refuses JSON nested deeper than PHP decodes (512 levels), and takes what PHP takes', async () => {
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    expectError(await gw.api('POST', '/tags', { token: 'editor', body: `{"name":"deep","zz":${deep(3000)}}` }), 400, 'rest_invalid_json');
    const ok = await gw.api('POST', '/tags', { token: 'editor', body: `{"name":"shallow","zz":${deep(200)}}` });
    expect(ok.status, ok.text).toBe(201);
  });

  it('keeps C0 control characters in venue fields as TEC does, and removes them from term names and parameter names', async () => {
    const form = await gw.api('POST', '/tags', { token: 'editor', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=%1B%2F%1Bslash' });
    expect(form.status, form.text).toBe(201);
    expect(form.body.name).toBe('/slash');
    const venue = await gw.api('POST', '/venues', { token: 'editor', body: { venue: 'V\u0001enue', phone: '\u0001 555', address: 'Main\fStreet' } });
    expect(venue.status, venue.text).toBe(201);
    // TEC keeps them (sanitize_text_field does not remove them): seen on the live TEC.
    expect(venue.body).toMatchObject({ venue: 'V\u0001enue', phone: '\u0001 555', address: 'Main\fStreet' });
    const linked = await gw.api('POST', '/events', { token: 'editor', body: { ...event('Linked'), tags: ['\u0000ctl'] } });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body.tags.map((t: { name: string }) => t.name)).toEqual(['ctl']);
    // Tabs and line breaks are text.
    const kept = await gw.api('POST', '/events', { token: 'editor', body: { ...event('Kept'), description: 'a\tb\r\nc' } });
    expect(kept.body.description).toContain('a\tb');
  });

  it('takes an empty filter next to another as no filter', async () => {
    await createAsEditor(gw, '/events', { ...event('At the hall'), venue: hallId });
    const both = await gw.api('GET', '/events', { query: { venue: hallId, organizer: '' } });
    expect(both.status, both.text).toBe(200);
    expect(both.body.total).toBe(1);
    const venueOnly = await gw.api('GET', '/events', { query: { venue: hallId } });
    expect(both.body.total).toBe(venueOnly.body.total);
  });

  it('never counts below zero when end bounds leave no end time, and counts each event once for two upper bounds', async () => {
    const none = await gw.api('GET', '/events', { query: { end_date: '18', ends_after: 'now' } });
    expect(none.status, none.text).toBe(200);
    expect(none.body.total).toBe(0);
    expect(none.headers.get('x-tec-total')).toBe('0');
    const upper = await gw.api('GET', '/events', { query: { end_date: at(60, 0), ends_before: at(30, 0) } });
    expect(upper.status, upper.text).toBe(200);
    expect(upper.body.total).toBe(upper.body.events.length);
    expect(upper.body.total).toBeGreaterThan(0);
  });

  it('refuses a title, description or name of exactly "0", as TEC does', async () => {
    expectInvalidParams(await gw.api('POST', '/events', { token: 'editor', body: event('0') }), 'title');
    expectInvalidParams(await gw.api('POST', '/venues', { token: 'editor', body: { venue: '0' } }), 'venue');
    expectInvalidParams(await gw.api('POST', '/organizers', { token: 'editor', body: { organizer: '0' } }), 'organizer');
    expectInvalidParams(await gw.api('POST', '/categories', { token: 'editor', body: { name: '0' } }), 'name');
    const zeroCity = await gw.api('POST', '/venues', { token: 'editor', body: { venue: 'Zero city', city: '0' } });
    expect(zeroCity.status, zeroCity.text).toBe(201);
  });
});
