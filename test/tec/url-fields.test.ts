// The live TEC's side of test/support/url-samples.ts: what it stores as an event's website for
// each value (undefined: it answers 400), read back from WordPress's own route with `context=edit`;
// for the other schemes, a venue's and an organizer's website too, and the image's schemes.
import { beforeAll, describe, expect, it } from 'vitest';
import { liveTec, TEC } from '../support/live-tec.js';
import { LIVE } from '../support/url-samples.js';

describe('websites the live TEC stores', () => {
  let auth = '';
  beforeAll(async () => {
    auth = (await liveTec()).auth;
  });

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${TEC}/wp-json${route}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  /**
   * What the live TEC made of a website: 400 when `expected` is undefined, else the value in the
   * record's meta (`context=edit`) and in TEC's answer; the record is deleted after.
   */
  const expectStored = async (made: { status: number; body: Record<string, any> }, kind: 'event' | 'venue' | 'organizer', meta: string, expected: string | undefined) => {
    if (expected === undefined) {
      expect(made.status).toBe(400);
      expect(made.body.code).toBe('rest_invalid_param');
      return;
    }
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    try {
      const raw = await call('GET', `/wp/v2/tribe_${kind === 'event' ? 'events' : kind}/${made.body.id}?context=edit`);
      expect(raw.body.meta[meta]).toBe(expected);
      if (kind !== 'event') expect((await call('GET', `/tribe/events/v1/${kind}s/${made.body.id}`)).body.website).toBe(expected);
    } finally {
      await call('DELETE', `/tribe/events/v1/${kind}s/${made.body.id}?force=true`);
    }
  };

  it.each(LIVE.filter(([input]) => input !== ''))('stores %j as %j', async (input, expected) => {
    const made = await call('POST', '/tribe/events/v1/events', {
      title: 'Website probe',
      status: 'draft',
      start_date: '2030-01-01 10:00',
      end_date: '2030-01-01 11:00',
      website: input,
    });
    await expectStored(made, 'event', '_EventURL', expected);
  });

  // Rows of a scheme other than http and https: a venue and an organizer store them as an event does.
  const SCHEMES = LIVE.filter(([input]) => input !== '' && !/^\s*https?:/i.test(input));
  it.each(
    SCHEMES.flatMap(([input, expected]) => [
      ['venue', input, expected],
      ['organizer', input, expected],
    ]),
  )("a %s's website %j is stored as %j", async (kind, input, expected) => {
    const made = await call('POST', `/tribe/events/v1/${kind}s`, { [kind]: `Website probe ${Math.random()}`, status: 'draft', website: input });
    await expectStored(made, kind as 'venue' | 'organizer', kind === 'venue' ? '_VenueURL' : '_OrganizerWebsite', expected);
  });

  it.each(['ftp://example.com/x.jpg', 'mailto:a@example.com', 'tel:+123'])('refuses the image %j (it fetches an image: http and https only)', async (image) => {
    const made = await call('POST', '/tribe/events/v1/events', { title: 'Image probe', status: 'draft', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', image });
    if (made.body?.id) await call('DELETE', `/tribe/events/v1/events/${made.body.id}?force=true`);
    expect([made.status, made.body.code]).toEqual([400, 'rest_invalid_param']);
  });
});
