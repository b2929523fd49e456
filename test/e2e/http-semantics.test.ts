// HTTP semantics over the local gateway: entity tags and 304s on reads, If-Match on writes (412
// and nothing written when stale, also when two writers race with the same tag), the caching
// headers of anonymous and personal answers, and retry-safe creates with Idempotency-Key.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway, type ApiResponse } from '../support/gateway.js';
import { createAsEditor, expectError } from '../support/expect.js';

const gw = useGateway();
const at = (days: number, hour = 10) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
const RECORD_TAG = /^"(\d+)\.(\d+)\.[A-Za-z0-9_-]{22}"$/;
const LIST_TAG = /^"[A-Za-z0-9_-]{22}"$/;

const tagOf = (res: ApiResponse) => res.headers.get('etag')!;

describe('entity tags and 304 on reads', () => {
  let event: any;
  beforeAll(async () => {
    event = await createAsEditor(gw, '/events', { title: 'Tagged concert', start_date: at(4), end_date: at(4, 12), status: 'publish' });
  });

  it('tags a record by id and by slug with its revision, and answers 304 to a current tag', async () => {
    const byId = await gw.api('GET', `/events/${event.id}`);
    expect(byId.status).toBe(200);
    const tag = tagOf(byId);
    expect(tag).toMatch(RECORD_TAG);
    expect(RECORD_TAG.exec(tag)![1]).toBe(String(event.id));
    const bySlug = await gw.api('GET', `/events/by-slug/${event.slug}`);
    expect(tagOf(bySlug)).toMatch(RECORD_TAG);

    for (const [path, current] of [
      [`/events/${event.id}`, tag],
      [`/events/by-slug/${event.slug}`, tagOf(bySlug)],
    ] as const) {
      const again = await gw.api('GET', path, { headers: { 'if-none-match': current } });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(tagOf(again)).toBe(current);
      expect(again.headers.get('cache-control')).toBe('public, max-age=5, stale-while-revalidate=10');
      // The weak comparison of If-None-Match, and a list of tags.
      expect((await gw.api('GET', path, { headers: { 'if-none-match': `W/${current}` } })).status).toBe(304);
      expect((await gw.api('GET', path, { headers: { 'if-none-match': `"nope", ${current}` } })).status).toBe(304);
      expect((await gw.api('GET', path, { headers: { 'if-none-match': '"nope"' } })).status).toBe(200);
    }
  });

  it('tags a list page by its content: 304 while it holds, a new tag once a record on it changes', async () => {
    const query = { per_page: 50 };
    const first = await gw.api('GET', '/events', { query });
    expect(first.status).toBe(200);
    const tag = tagOf(first);
    expect(tag).toMatch(LIST_TAG);
    expect((await gw.api('GET', '/events', { query, headers: { 'if-none-match': tag } })).status).toBe(304);
    // Another page of the same list is another answer.
    expect(tagOf(await gw.api('GET', '/events', { query: { per_page: 49 } }))).not.toBe(tag);

    const edited = await gw.api('POST', `/events/${event.id}`, { body: { description: 'Now with a description' }, token: 'editor' });
    expect(edited.status, edited.text).toBe(200);
    const after = await gw.api('GET', '/events', { query, headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(tagOf(after)).not.toBe(tag);
  });

  it('lets shared caches keep anonymous successes only', async () => {
    const anonymous = await gw.api('GET', `/events/${event.id}`);
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=5, stale-while-revalidate=10');
    expect(anonymous.headers.get('vary')).toBe('Authorization, Origin');

    const editor = await gw.api('GET', `/events/${event.id}`, { token: 'editor' });
    expect(editor.status).toBe(200);
    expect(editor.headers.get('cache-control')).toBe('private, no-store');
    expect(editor.headers.get('vary')).toBe('Authorization, Origin');
    expect(tagOf(editor)).toMatch(RECORD_TAG);

    // A request that sent credentials, even ones that identify nobody, is personal.
    const badToken = await gw.api('GET', '/categories', { headers: { authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` } });
    expect(badToken.headers.get('cache-control')).toBe('private, no-store');

    // A post password is a credential too.
    const withPassword = await gw.api('GET', `/events/${event.id}`, { query: { password: 'x' } });
    expect(withPassword.headers.get('cache-control')).toBe('private, no-store');

    const missing = await gw.api('GET', '/events/987654321');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('private, no-store');
    expect(missing.headers.get('etag')).toBeNull();

    const write = await gw.api('POST', '/categories', { body: { name: `Cache ${Date.now()}` }, token: 'editor' });
    expect(write.status).toBe(201);
    expect(write.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('If-Match on writes', () => {
  const read = async (path: string) => {
    const res = await gw.api('GET', path, { token: 'editor' });
    expect(res.status, res.text).toBe(200);
    return res;
  };

  it('writes with a current tag, and answers 412 to a stale one without writing', async () => {
    const event = await createAsEditor(gw, '/events', { title: 'Match me', start_date: at(5), end_date: at(5, 11), status: 'publish' });
    const first = await read(`/events/${event.id}`);
    const tag = tagOf(first);

    const ok = await gw.api('POST', `/events/${event.id}`, { body: { title: 'Matched' }, token: 'editor', headers: { 'if-match': tag } });
    expect(ok.status, ok.text).toBe(200);
    const newTag = tagOf(ok);
    expect(newTag).toMatch(RECORD_TAG);
    expect(Number(RECORD_TAG.exec(newTag)![2])).toBeGreaterThan(Number(RECORD_TAG.exec(tag)![2]));

    // The old tag is stale now: on the record-only path (title) and the whole-record path (dates).
    for (const body of [{ title: 'Lost update' }, { start_date: at(6), end_date: at(6, 11) }]) {
      const stale = await gw.api('POST', `/events/${event.id}`, { body, token: 'editor', headers: { 'if-match': tag } });
      expectError(stale, 412, 'rest_precondition_failed');
    }
    const now = await read(`/events/${event.id}`);
    expect(now.body.title).toBe('Matched');
    expect(now.body.start_date).toBe(at(5));

    // The tag a write answered with holds for the next write; so does `*`; a weak tag never does.
    expectError(await gw.api('POST', `/events/${event.id}`, { body: { title: 'Weak' }, token: 'editor', headers: { 'if-match': `W/${newTag}` } }), 412, 'rest_precondition_failed');
    expect((await gw.api('POST', `/events/${event.id}`, { body: { title: 'Chained' }, token: 'editor', headers: { 'if-match': newTag } })).status).toBe(200);
    expect((await gw.api('POST', `/events/${event.id}`, { body: { title: 'Any' }, token: 'editor', headers: { 'if-match': '*' } })).status).toBe(200);
    // A tag of another record or of a list names nothing this write may change.
    const other = await createAsEditor(gw, '/events', { title: 'Other', start_date: at(5), end_date: at(5, 11) });
    const otherTag = tagOf(await read(`/events/${other.id}`));
    expectError(
      await gw.api('POST', `/events/${event.id}`, { body: { title: 'Wrong record' }, token: 'editor', headers: { 'if-match': otherTag } }),
      412,
      'rest_precondition_failed',
    );
    const listTag = tagOf(await gw.api('GET', '/events'));
    expectError(await gw.api('POST', `/events/${event.id}`, { body: { title: 'A list' }, token: 'editor', headers: { 'if-match': listTag } }), 412, 'rest_precondition_failed');
    expect((await read(`/events/${event.id}`)).body.title).toBe('Any');
  });

  it('lets exactly one of several writers holding the same tag through', async () => {
    const event = await createAsEditor(gw, '/events', { title: 'Contended', start_date: at(7), end_date: at(7, 11) });
    for (const change of [(i: number) => ({ title: `Writer ${i}` }), (i: number) => ({ start_date: at(8, 8 + i), end_date: at(8, 9 + i) })]) {
      const tag = tagOf(await read(`/events/${event.id}`));
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => gw.api('POST', `/events/${event.id}`, { body: change(i), token: 'editor', headers: { 'if-match': tag } })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, results.map((r) => r.text).join('\n')).toEqual([200, 412, 412, 412, 412]);
      for (const r of results.filter((x) => x.status === 412)) expect(r.body.code).toBe('rest_precondition_failed');
      const winner = results.find((r) => r.status === 200)!;
      const now = await read(`/events/${event.id}`);
      expect(now.body.title).toBe(winner.body.title);
      expect(now.body.start_date).toBe(winner.body.start_date);
    }
  });

  it('guards deletes, venues and terms the same way', async () => {
    const venue = await createAsEditor(gw, '/venues', { venue: 'Guarded hall' });
    const vTag = tagOf(await read(`/venues/${venue.id}`));
    expect((await gw.api('POST', `/venues/${venue.id}`, { body: { city: 'Vilnius' }, token: 'editor', headers: { 'if-match': vTag } })).status).toBe(200);
    expectError(await gw.api('POST', `/venues/${venue.id}`, { body: { city: 'Kaunas' }, token: 'editor', headers: { 'if-match': vTag } }), 412, 'rest_precondition_failed');
    expectError(await gw.api('DELETE', `/venues/${venue.id}`, { token: 'editor', headers: { 'if-match': vTag } }), 412, 'rest_precondition_failed');
    const v = await read(`/venues/${venue.id}`);
    expect(v.body.city).toBe('Vilnius');
    expect((await gw.api('DELETE', `/venues/${venue.id}`, { token: 'editor', headers: { 'if-match': tagOf(v) } })).status).toBe(200);

    const category = await createAsEditor(gw, '/categories', { name: `Guarded ${Date.now()}` });
    const cTag = tagOf(await read(`/categories/${category.id}`));
    expect((await gw.api('POST', `/categories/${category.id}`, { body: { description: 'one' }, token: 'editor', headers: { 'if-match': cTag } })).status).toBe(200);
    expectError(await gw.api('DELETE', `/categories/${category.id}`, { token: 'editor', headers: { 'if-match': cTag } }), 412, 'rest_precondition_failed');
    expect((await read(`/categories/${category.id}`)).body.description).toBe('one');

    const event = await createAsEditor(gw, '/events', { title: 'Trash guard', start_date: at(9), end_date: at(9, 11) });
    const eTag = tagOf(await read(`/events/${event.id}`));
    await gw.api('POST', `/events/${event.id}`, { body: { title: 'Trash guard, edited' }, token: 'editor' });
    expectError(await gw.api('DELETE', `/events/by-slug/${event.slug}`, { token: 'editor', headers: { 'if-match': eTag } }), 412, 'rest_precondition_failed');
    expect((await read(`/events/${event.id}`)).body.status).not.toBe('trash');
  });

  it('deletes a venue and a category linked to several events with a current tag', async () => {
    // Trashing the venue is its first write; unlinking the category's events moves its counts first.
    const venue = await createAsEditor(gw, '/venues', { venue: `Busy hall ${Date.now()}` });
    const category = await createAsEditor(gw, '/categories', { name: `Busy ${Date.now()}` });
    const events: any[] = [];
    for (let i = 0; i < 4; i++) {
      events.push(
        await createAsEditor(gw, '/events', { title: `Busy ${i}`, start_date: at(10), end_date: at(10, 11), status: 'publish', venue: venue.id, categories: [category.id] }),
      );
    }
    for (const path of [`/venues/${venue.id}`, `/categories/${category.id}`]) {
      const res = await gw.api('DELETE', path, { token: 'editor', headers: { 'if-match': tagOf(await read(path)) } });
      expect(res.status, res.text).toBe(200);
    }
    for (const e of events) {
      const now = await read(`/events/${e.id}`);
      expect(now.body.venue).toEqual([]);
      expect(now.body.categories).toEqual([]);
    }
  });

  it('changes nothing for writes without If-Match', async () => {
    const event = await createAsEditor(gw, '/events', { title: 'Unconditional', start_date: at(9), end_date: at(9, 11) });
    expect((await gw.api('POST', `/events/${event.id}`, { body: { title: 'One' }, token: 'editor' })).status).toBe(200);
    expect((await gw.api('POST', `/events/${event.id}`, { body: { title: 'Two' }, token: 'editor' })).status).toBe(200);
  });
});

describe('Idempotency-Key on creates', () => {
  const titled = async (title: string) => {
    const res = await gw.api('GET', '/events', { query: { status: 'any', per_page: 50, start_date: at(20), end_date: at(40) }, token: 'editor' });
    expect(res.status).toBe(200);
    return (res.body.events as { title: string; id: number }[]).filter((e) => e.title === title);
  };

  it('answers a repeat with the first answer and writes nothing', async () => {
    const body = { title: 'Once only', start_date: at(21), end_date: at(21, 12) };
    const headers = { 'idempotency-key': 'create-once-1' };
    const first = await gw.api('POST', '/events', { body, token: 'editor', headers });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await gw.api('POST', '/events', { body, token: 'editor', headers });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await titled('Once only')).map((e) => e.id)).toEqual([first.body.id]);

    // The same key for another request is refused, and writes nothing.
    const other = await gw.api('POST', '/events', { body: { ...body, title: 'Another one' }, token: 'editor', headers });
    expectError(other, 422, 'rest_idempotency_key_reused');
    expect(await titled('Another one')).toEqual([]);
  });

  it('keeps keys per caller and keeps no failure', async () => {
    const body = { title: 'Per caller', start_date: at(22), end_date: at(22, 12) };
    const headers = { 'idempotency-key': 'shared-key' };
    const editor = await gw.api('POST', '/events', { body, token: 'editor', headers });
    const author = await gw.api('POST', '/events', { body, token: 'author', headers });
    expect([editor.status, author.status]).toEqual([201, 201]);
    expect(author.body.id).not.toBe(editor.body.id);

    // A refused create runs again when repeated with its key.
    const noTitle = { start_date: at(23), end_date: at(23, 12) };
    const failedHeaders = { 'idempotency-key': 'fails-first' };
    expectError(await gw.api('POST', '/events', { body: noTitle, token: 'editor', headers: failedHeaders }), 400, 'rest_missing_callback_param');
    expectError(await gw.api('POST', '/events', { body: noTitle, token: 'editor', headers: failedHeaders }), 400, 'rest_missing_callback_param');

    expectError(await gw.api('POST', '/events', { body, token: 'editor', headers: { 'idempotency-key': 'x'.repeat(256) } }), 400, 'rest_invalid_idempotency_key');
  });

  it('creates exactly one record when the same request is sent many times at once', async () => {
    const body = { title: 'Stampede', start_date: at(24), end_date: at(24, 12) };
    const headers = { 'idempotency-key': 'stampede-1' };
    const results = await Promise.all(Array.from({ length: 8 }, () => gw.api('POST', '/events', { body, token: 'editor', headers })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'rest_idempotency_in_progress');
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect((await titled('Stampede')).length).toBe(1);
    // Once the first has finished, every repeat gets its answer.
    const later = await gw.api('POST', '/events', { body, token: 'editor', headers });
    expect(later.status).toBe(201);
    expect(later.body.id).toBe(created[0]!.body.id);
  });

  it('works for every kind that is created', async () => {
    for (const [path, body] of [
      ['/venues', { venue: 'Idempotent hall' }],
      ['/organizers', { organizer: 'Idempotent org' }],
      ['/categories', { name: `Idempotent ${Date.now()}` }],
      ['/tags', { name: `idempotent-${Date.now()}` }],
    ] as const) {
      const headers = { 'idempotency-key': `kind-${path}` };
      const a = await gw.api('POST', path, { body, token: 'editor', headers });
      const b = await gw.api('POST', path, { body, token: 'editor', headers });
      expect([a.status, b.status], `${path}: ${a.text} ${b.text}`).toEqual([201, 201]);
      expect(b.body.id).toBe(a.body.id);
    }
    // Without a key every create is a new record (events are not de-duplicated).
    const twice = { title: 'Twice', start_date: at(25), end_date: at(25, 12) };
    const c = await createAsEditor(gw, '/events', twice);
    const d = await createAsEditor(gw, '/events', twice);
    expect(d.id).not.toBe(c.id);
  });
});
