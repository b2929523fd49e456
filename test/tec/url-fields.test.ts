// The live TEC's side of test/support/url-samples.ts: what it stores as an event's website for
// each value (undefined: it answers 400), read back from WordPress's own route with `context=edit`.
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

  it.each(LIVE.filter(([input]) => input !== ''))('stores %j as %j', async (input, expected) => {
    const made = await call('POST', '/tribe/events/v1/events', {
      title: 'Website probe',
      status: 'draft',
      start_date: '2030-01-01 10:00',
      end_date: '2030-01-01 11:00',
      website: input,
    });
    if (expected === undefined) {
      expect(made.status).toBe(400);
      expect(made.body.code).toBe('rest_invalid_param');
      return;
    }
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    try {
      const raw = await call('GET', `/wp/v2/tribe_events/${made.body.id}?context=edit`);
      expect(raw.body.meta._EventURL).toBe(expected);
    } finally {
      await call('DELETE', `/tribe/events/v1/events/${made.body.id}?force=true`);
    }
  });
});
