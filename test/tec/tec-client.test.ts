// The client journey of test/e2e/tec-client.test.ts against the live TEC, with the same
// expectations: what a TEC client sees at a TEC site is what it sees here.
import { describe, expect, it } from 'vitest';
import { clientJourney, EXPECTED_JOURNEY } from '../support/client-journey.js';
import { liveTec, TEC } from '../support/live-tec.js';

describe('a TEC client configured with the live TEC site URL', () => {
  it('sees what it sees at this API, through /wp-json/ and through ?rest_route=', async () => {
    const { credentials } = await liveTec();
    expect(await clientJourney(TEC, credentials)).toMatchObject(EXPECTED_JOURNEY);
    // WordPress writes links in the form of the site's permalink setting (the live site has pretty
    // permalinks), whatever form the request used; this API keeps the request's form.
    const plain = await clientJourney(TEC, credentials, 'plain');
    expect(plain).toMatchObject({ ...EXPECTED_JOURNEY, listed: { ...EXPECTED_JOURNEY.listed, nextForm: ['site', 'wp-json'] } });
  });
});
