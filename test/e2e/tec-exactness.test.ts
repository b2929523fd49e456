// Small cases where real TEC clients sent what TEC takes: statuses as a list, ticketed=false,
// and id 0, which TEC's `\d+` routes match (a missing record, not a missing route).
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { createAsEditor, expectError } from '../support/expect.js';

const gw = useGateway();
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;

beforeAll(async () => {
  await createAsEditor(gw, '/events', { title: 'Published', start_date: at(2), end_date: at(2) });
  await createAsEditor(gw, '/events', { title: 'Drafted', status: 'draft', start_date: at(3), end_date: at(3) });
  await createAsEditor(gw, '/venues', { venue: 'Drafted hall', status: 'draft' });
});

describe('status as a list', () => {
  it('takes status[]=publish&status[]=draft as TEC does, like the comma-separated form', async () => {
    const list = await gw.api('GET', '/events?status[]=publish&status[]=draft', { token: 'editor' });
    expect(list.status, list.text).toBe(200);
    expect(list.body.events.map((e: { title: string }) => e.title).sort()).toEqual(['Drafted', 'Published']);
    const csv = await gw.api('GET', '/events?status=publish,draft', { token: 'editor' });
    expect(csv.body.events).toEqual(list.body.events);
    const venues = await gw.api('GET', '/venues?status[]=draft', { token: 'editor' });
    expect(venues.body.venues.map((v: { venue: string }) => v.venue)).toEqual(['Drafted hall']);
  });
  it('still refuses an unknown status in the list', async () => {
    expectError(await gw.api('GET', '/events?status[]=publish&status[]=bogus', { token: 'editor' }), 400, 'rest_invalid_param');
  });
});

describe('ticketed', () => {
  it('ignores ticketed=false, and answers ticketed=true as TEC without Event Tickets', async () => {
    const off = await gw.api('GET', '/events', { query: { ticketed: 'false' } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.events).toHaveLength(1);
    expectError(await gw.api('GET', '/events', { query: { ticketed: 'true' } }), 400, 'rest_invalid_param');
  });
});

describe('id 0', () => {
  it('is answered as any missing record of the kind, never rest_no_route', async () => {
    for (const kind of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      const zero = await gw.api('GET', `/${kind}/0`);
      const missing = await gw.api('GET', `/${kind}/987654`);
      expect(zero.status, kind).toBe(missing.status);
      expect(zero.body.code, kind).toBe(missing.body.code);
      expect(zero.body.code).not.toBe('rest_no_route');
    }
    expectError(await gw.api('GET', '/events/0'), 404, 'rest-event-not-found', 'Event with ID 0 does not exist.');
    expectError(await gw.api('DELETE', '/events/0', { token: 'editor' }), 404, 'rest-event-not-found');
  });
});

describe('per_page default', () => {
  it('shows the site setting (9) in the namespace index and in /doc, as TEC does', async () => {
    const index = await gw.api('GET', '');
    expect(index.status).toBe(200);
    const lists = Object.entries(index.body.routes as Record<string, { endpoints: { methods: string[]; args: Record<string, { default?: unknown }> }[] }>).filter(([route]) =>
      /\/(events|venues|organizers|categories|tags)$/.test(route),
    );
    expect(lists).toHaveLength(5);
    for (const [route, r] of lists) expect(r.endpoints[0]!.args.per_page?.default, route).toBe(9);
    const doc = await gw.api('GET', '/doc');
    const params = doc.body.paths['/events'].get.parameters as { name: string; schema: { default?: unknown } }[];
    expect(params.find((p) => p.name === 'per_page')?.schema.default).toBe(9);
  });
});

describe('401', () => {
  it("keeps TEC's message and names the scheme the API takes in WWW-Authenticate", async () => {
    const anonymous = await gw.api('POST', '/events', { body: { title: 'x' } });
    expectError(anonymous, 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const forged = await gw.api('GET', '/events', { headers: { authorization: 'Bearer not.a.token' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe('Bearer');
    expect((await gw.api('GET', '/events')).headers.get('www-authenticate')).toBeNull();
  });
});
