// One item with fields of the wrong type (written by hand, by an import or by an older version)
// must not fail the pages that show it: reads and lists answer 200 and show the value as text.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('malformed');

let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'malformed-editor');
});

/** Sets fields of a stored item to the given values, bypassing the API. */
async function corrupt(key: { pk: string; sk: string }, fields: Record<string, unknown>): Promise<void> {
  const names = Object.fromEntries(Object.keys(fields).map((f, i) => [`#f${i}`, f]));
  const values = Object.fromEntries(Object.values(fields).map((v, i) => [`:v${i}`, v]));
  const sets = Object.keys(fields).map((_, i) => `#f${i} = :v${i}`);
  await db().send(
    new UpdateCommand({ TableName: config().tableName, Key: key, UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values }),
  );
}

const create = async (path: string, body: Record<string, unknown>) => {
  const res = await invoke('POST', 'en', path, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
};

describe('an item with fields of the wrong type', () => {
  it('is shown, its wrong text as text, by reads and lists of every kind', async () => {
    const venue = await create('/venues', { venue: 'Typed Hall', city: 'Kaunas' });
    const organizer = await create('/organizers', { organizer: 'Typed Org' });
    const category = await create('/categories', { name: 'Typed category' });
    const tag = await create('/tags', { name: 'Typed tag' });
    const event = await create('/events', {
      title: 'Typed event',
      start_date: '2031-03-01 10:00',
      end_date: '2031-03-01 12:00',
      venue,
      organizer: [organizer],
      categories: [category],
      tags: [tag],
    });
    await corrupt(keys.post(event), { title: 123, description: 45.5, excerpt: true });
    await corrupt(keys.post(venue), { title: 7, city: 8 });
    await corrupt(keys.post(organizer), { title: 9, phone: 5550100 });
    await corrupt(keys.term(category), { description: 11 });
    await corrupt(keys.term(tag), { description: 12 });

    const one = await invoke('GET', 'en', `/events/${event}`, { token });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.title).toBe('123');
    expect(one.body.description).toContain('45.5');
    const list = await invoke('GET', 'en', '/events', { token, query: { start_date: '2031-03-01', end_date: '2031-03-31' } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.events.map((e: { title: string }) => e.title)).toEqual(['123']);

    const v = await invoke('GET', 'en', `/venues/${venue}`, { token });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect([v.body.venue, v.body.city]).toEqual(['7', '8']);
    expect((await invoke('GET', 'en', '/venues', { token })).status).toBe(200);

    const o = await invoke('GET', 'en', `/organizers/${organizer}`, { token });
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect([o.body.organizer, o.body.phone]).toEqual(['9', '5550100']);
    expect((await invoke('GET', 'en', '/organizers', { token })).status).toBe(200);

    for (const [path, id, description] of [
      ['/categories', category, '11'],
      ['/tags', tag, '12'],
    ] as const) {
      const t = await invoke('GET', 'en', `${path}/${id}`, { token });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      expect(t.body.description).toBe(description);
      expect((await invoke('GET', 'en', path, { token, query: { hide_empty: 'false' } })).status).toBe(200);
    }
  });
});
