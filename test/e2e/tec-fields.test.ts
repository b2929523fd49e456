// Details where this API answers as the live TEC does (each seen on WordPress 6.8 + TEC 6.17.2):
// venue and organizer fields saved as post meta, inline records with nested values, and the
// form of `rest_url`.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';

const gw = useGateway();
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;

describe('venue and organizer fields are saved as TEC saves post meta (sanitize_text_field)', () => {
  for (const who of ['editor', 'contributor'] as const) {
    it(`${who}: script and style go with their content, other tags go, & and < stay as typed`, async () => {
      const token = who === 'editor' ? 'editor' : await gw.token('contributor', 'exactness-contributor');
      const venue = await gw.api('POST', '/venues', {
        token,
        body: {
          venue: `Meta Hall ${who}`,
          address: '<script>alert(1)</script>A & B <b>bold</b>',
          city: '<style>x{}</style>Town &amp; C',
          zip: '1 < 2',
          phone: 'a\tb\nc',
        },
      });
      expect(venue.status, venue.text).toBe(201);
      expect(venue.body).toMatchObject({ address: 'A & B bold', city: 'Town &amp; C', zip: '1 &lt; 2', phone: 'a b c' });
      const organizer = await gw.api('POST', '/organizers', { token, body: { organizer: `Meta Org ${who}`, phone: '<script>x</script>1 & 2', email: 'a&b@example.com' } });
      expect(organizer.status, organizer.text).toBe(201);
      expect(organizer.body).toMatchObject({ phone: '1 & 2', email: 'a&b@example.com' });
    });
  }
});

describe('an inline venue or organizer whose fields are not all scalars', () => {
  for (const [field, value] of [
    ['venue', { venue: { nested: 1 } }],
    ['venue', { venue: 'Scalar Hall', city: { a: 1 } }],
    ['venue', { venue: ['a'] }],
    ['organizer', [{ organizer: { nested: 1 } }]],
  ] as const) {
    it(`${JSON.stringify({ [field]: value })}: 400 rest_invalid_param naming ${field}, and nothing written`, async () => {
      const before = await gw.api('GET', '/venues', { query: { search: 'Scalar Hall' } });
      const res = await gw.api('POST', '/events', { token: 'editor', body: { title: 'Nested', start_date: at(3, 10), end_date: at(3, 11), [field]: value } });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${field}`,
        data: { status: 400, params: { [field]: 'Invalid parameter.' }, details: [] },
      });
      const after = await gw.api('GET', '/venues', { query: { search: 'Scalar Hall' } });
      expect(after.body.total ?? 0).toBe(before.body.total ?? 0);
    });
  }
});

describe('rest_url', () => {
  it('writes the query as TEC does (spaces and colons as they are), and encodes only what would change the URL', async () => {
    const res = await gw.api('GET', '/events', { query: { start_date: '2030-01-01 00:00:00', search: 'a b:c', per_page: 1 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rest_url).toContain('start_date=2030-01-01 00:00:00&');
    expect(res.body.rest_url).toContain('search=a b:c');
    const odd = await gw.api('GET', '/events', { query: { search: 'a&b#c%d+e', per_page: 1 } });
    expect(odd.body.rest_url).toContain('search=a%26b%23c%25d%2Be');
    expect(new URL(odd.body.rest_url).searchParams.get('search')).toBe('a&b#c%d+e');
  });

  it('of venues and organizers carries has_events before status, as TEC orders it', async () => {
    for (const kind of ['venues', 'organizers']) {
      const res = await gw.api('GET', `/${kind}`, { query: { has_events: 1, per_page: 1 } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.rest_url).toMatch(new RegExp(`/${kind}/\\?page=1&per_page=1&has_events=1&status=publish$`));
    }
  });
});
