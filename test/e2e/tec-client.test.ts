// A TEC client pointed at this API's own URL, as at a TEC site's: no proxy, no other path. The
// journey (test/support/client-journey.ts) runs here through the local gateway, in both permalink
// forms, and against the live TEC in `npm run test:tec`, with the same expectations.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { clientJourney, EXPECTED_JOURNEY } from '../support/client-journey.js';
import { TecClient } from '../support/tec-client.js';

const gw = useGateway({ tablePrefix: 'tecclient' });
let credentials: string;

beforeAll(async () => {
  const token = await gw.token('editor', 'journey-editor', { user: 'journey' });
  const res = await gw.api('POST', gw.abs('/wp-json/wp/v2/users/me/application-passwords'), { token, body: { name: 'client' } });
  expect(res.status).toBe(201);
  credentials = `journey:${res.body.password}`;
});

describe('a TEC client configured with the site URL', () => {
  it('finds the API, signs in, writes, pages, renames and trashes through /wp-json/', async () => {
    const seen = await clientJourney(gw.origin, credentials);
    expect(seen).toMatchObject(EXPECTED_JOURNEY);
    expect(seen.listed.pages).toBeGreaterThanOrEqual(3);
  });

  it("pages signed in too: an editor's next_rest_url is one its route takes", async () => {
    const client = new TecClient({ site: gw.origin, credentials });
    const all = await client.allEvents({ start_date: '2031-01-01', end_date: '2031-12-31', per_page: 1, status: 'draft,publish' });
    expect(all.pages).toBeGreaterThanOrEqual(4);
    expect(all.events.length).toBe(all.total);
  });

  it('does the same through ?rest_route=, as for sites without pretty permalinks', async () => {
    const seen = await clientJourney(gw.origin, credentials, 'plain');
    expect(seen).toMatchObject({ ...EXPECTED_JOURNEY, listed: { ...EXPECTED_JOURNEY.listed, nextForm: ['site', 'rest_route'] } });
  });
});
