// The REST index's `gmt_offset` is the site zone's offset at the moment asked, also in the hour
// the zone passes twice (Vilnius, 2027-10-31: 03:00-04:00 is first +03:00, then +02:00).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { siteIndex } from '#lib/logic/root.js';
import { resetConfig } from '#lib/runtime/config.js';

const at = async (iso: string) => {
  const ctx: RequestContext = { op: operation('root.site'), lang: 'en', path: {}, params: {}, input: {}, principal: undefined, method: 'GET', now: new Date(iso) };
  const body = (await siteIndex(ctx)).body as Record<string, unknown>;
  return [body.gmt_offset, body.timezone_string];
};

describe('the site index in the hour clocks go back', () => {
  beforeAll(() => {
    process.env.SITE_TIMEZONE = 'Europe/Vilnius';
    resetConfig();
  });
  afterAll(() => {
    delete process.env.SITE_TIMEZONE;
    resetConfig();
  });

  it('gives each instant its own offset', async () => {
    expect(await at('2027-10-31T00:30:00Z')).toEqual([3, 'Europe/Vilnius']);
    expect(await at('2027-10-31T01:30:00Z')).toEqual([2, 'Europe/Vilnius']);
    expect(await at('2027-07-01T12:00:00Z')).toEqual([3, 'Europe/Vilnius']);
  });
});
