// What a search reads of the recent writes (lib/store/recent-writes.ts): kept while the table's change
// counter stays, read again once it moves; a deleted event marked gone; records read without a
// consistent read caught up with the writes they are behind.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { capacity } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import { keyOf } from '#lib/store/reads.js';
import { caughtUp, recentState } from '#lib/store/recent-writes.js';
import { bumpValidator, readValidator } from '#lib/store/validators.js';
import type { AnyPost } from '#lib/store/items.js';
import { invoke } from '#lib/local/invoke.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('recent-state');

let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'recent-state-editor');
});

const create = async (title: string) => {
  const res = await invoke('POST', 'en', '/events', { token, body: { title, start_date: '2033-06-01 10:00', end_date: '2033-06-01 11:00' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
};

describe('the recent writes a search reads', () => {
  it('are kept while the change counter stays, and read again once it moves', async () => {
    const id = await create('Kept recent write');
    const counter = await readValidator();
    const first = await recentState('en', counter);
    expect(first.ids).toContain(id);
    expect(first.written.get(id)).toBe(1);
    // Removed by hand (no write moves the counter): the state read at this counter still holds it, without a read.
    await db().send(new DeleteCommand({ TableName: config().tableName, Key: keys.recentWrite('en', id) }));
    capacity.reset();
    expect((await recentState('en', counter)).ids).toContain(id);
    expect(capacity.snapshot().requests).toBe(0);
    // Without a counter, and once it moved, the partition is read.
    expect((await recentState('en')).ids).not.toContain(id);
    await bumpValidator();
    const moved = await readValidator();
    expect(moved.stamp).not.toBe(counter.stamp);
    expect((await recentState('en', moved)).ids).not.toContain(id);
  });

  it('mark a deleted event gone, and the search right after finds neither it nor its stale record', async () => {
    const id = await create('Vanishing serpent');
    const search = async () => (await invoke('GET', 'en', '/events', { query: { search: 'serpent', start_date: '2033-06-01', end_date: '2033-06-30' } })).body;
    expect((await search()).events.map((e: { id: number }) => e.id)).toEqual([id]);
    expect((await invoke('DELETE', 'en', `/events/${id}`, { token, query: { force: 'true' } })).status).toBe(200);
    const state = await recentState('en');
    expect(state.written.get(id)).toBe('gone');
    expect(await search()).toMatchObject({ events: [], total: 0 });
  });

  it('read a record again, consistently, when the one read is behind its write', async () => {
    const written = new Map<number, number | 'gone'>([
      [1, 3],
      [2, 2],
      [3, 'gone'],
      [4, 1],
    ]);
    const record = (id: number, version: number) => ({ id, version }) as unknown as AnyPost;
    // 1 is behind, 2 is current, 3 was deleted (a stale read still found it), 4 was not found.
    const found = new Map<string, AnyPost>([
      [keyOf(keys.post(1)), record(1, 2)],
      [keyOf(keys.post(2)), record(2, 2)],
      [keyOf(keys.post(3)), record(3, 5)],
    ]);
    const asked: number[][] = [];
    await caughtUp(written, found, async (behind) => {
      asked.push(behind.map((k) => Number(k.pk.replace(/\D/g, ''))));
      return new Map([[keyOf(keys.post(1)), record(1, 3)]]);
    });
    expect(asked).toEqual([[1, 4]]);
    expect([...found.values()].map((e) => [e.id, e.version])).toEqual([
      [1, 3],
      [2, 2],
    ]);
  });
});
