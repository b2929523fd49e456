// A mirror of the calendar kept by GET /changes, over HTTP through the local gateway with the
// stream consumer running, as the README's "Syncing changes" tells a client to: take a cursor,
// list everything, then follow the cursor. What changed while it listed comes through the cursor.
import { expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { useEnv } from '../support/env.js';

const SETTLE_MS = 1000;
useEnv('CHANGES_SETTLE_MS', String(SETTLE_MS));

const gw = useGateway({ tablePrefix: 'e2e-changes', stream: true });

/** A wall time `days` from now, in the default list window. */
const day = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00`;
const settled = async () => {
  await gw.drain();
  await new Promise((ok) => setTimeout(ok, SETTLE_MS + 50));
};

it('keeps a mirror of the published events: a cursor first, everything listed, then the cursor followed', async () => {
  const editor = await gw.token('editor', 'e2e-changes-editor');
  const create = async (title: string, days: number) =>
    (await gw.api('POST', '/events', { token: editor, body: { title, start_date: day(days), end_date: day(days).replace(/:00$/, ':30') } })).body;
  const kept = await create('Mirror One', 1);
  const dropped = await create('Mirror Two', 2);

  const first = await gw.api('GET', '/changes', { lang: 'wp-json' });
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toMatch(/^public/);
  const mirror = new Map<number, any>();
  const listed = await gw.api('GET', '/events', { query: { per_page: 50 } });
  for (const e of listed.body.events) mirror.set(e.id, e);
  expect([...mirror.keys()].sort()).toEqual([kept.id, dropped.id].sort());

  // Changes while, and after, the client listed.
  const added = await create('Mirror Three', 3);
  await gw.api('POST', `/events/${kept.id}`, { token: editor, body: { title: 'Mirror One, renamed' } });
  await gw.api('DELETE', `/events/${dropped.id}`, { token: editor });
  await settled();

  let cursor = first.body.next;
  for (let more = true; more; ) {
    const page = await gw.api('GET', '/changes', { lang: 'wp-json', query: { since: cursor, per_page: 2 } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    for (const c of page.body.changes) {
      if (c.type !== 'event') continue;
      if (c.record) mirror.set(c.id, c.record);
      else mirror.delete(c.id);
    }
    ({ next: cursor, more } = page.body);
  }
  const now = await gw.api('GET', '/events', { query: { per_page: 50 } });
  expect([...mirror.keys()].sort()).toEqual(now.body.events.map((e: any) => e.id).sort());
  expect(mirror.get(kept.id).title).toBe('Mirror One, renamed');
  expect(mirror.get(added.id).title).toBe('Mirror Three');

  // Nothing more after the end; a cursor changed by the client is not this API's.
  const again = await gw.api('GET', '/changes', { query: { since: cursor } });
  expect(again.body).toMatchObject({ changes: [], more: false });
  const forged = await gw.api('GET', '/changes', { query: { since: `${cursor.slice(0, -4)}AAAA` } });
  expect([forged.status, forged.body.code]).toEqual([410, 'rest_cursor_expired']);
}, 60_000);
