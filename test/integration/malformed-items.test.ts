// One item with fields of the wrong type (written by hand, by an import or by an older version)
// must not fail the pages that show it: reads and lists answer 200 and show the value as text.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/** Replaces fields of a stored item (undefined: removes the field), bypassing the API. */
async function rewrite(key: { pk: string; sk: string }, change: Record<string, unknown>): Promise<void> {
  const { Item } = await db().send(new GetCommand({ TableName: config().tableName, Key: key }));
  const item: Record<string, unknown> = { ...Item };
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) delete item[field];
    else item[field] = value;
  }
  await db().send(new PutCommand({ TableName: config().tableName, Item: item }));
}

describe('an event whose stored end is not text', () => {
  it('is on a page of every window its start is in, and the total counts exactly the pages', async () => {
    const day = (d: number, h: number) => `2032-05-${String(d).padStart(2, '0')} ${String(h).padStart(2, '0')}:00`;
    const made: Record<string, number> = {};
    for (const [title, start, end] of [
      ['End well 1', day(3, 10), day(3, 12)],
      ['End numeric', day(10, 10), day(10, 12)],
      ['End well 2', day(12, 10), day(14, 12)],
      ['End missing', day(20, 10), day(20, 12)],
      ['End null', day(29, 10), day(29, 12)],
      ['End well 3', day(30, 22), day(31, 23)],
    ] as const)
      made[title] = await create('/events', { title, start_date: start, end_date: end });
    await rewrite(keys.post(made['End numeric']!), { utcEnd: 20320510 });
    await rewrite(keys.post(made['End missing']!), { utcEnd: undefined });
    await rewrite(keys.post(made['End null']!), { utcEnd: null });
    const broken = ['End numeric', 'End missing', 'End null'];

    // Each window has end conditions (a filter on the index, and corrections of its total).
    const windows: Record<string, string>[] = [
      { start_date: '2032-05-01', end_date: '2032-05-31' },
      { start_date: '2032-05-01', end_date: '2032-05-30' },
      { ends_after: '2032-05-13', starts_before: '2032-06-01' },
      { starts_after: '2032-05-01', ends_before: '2032-05-31' },
    ];
    for (const window of windows) {
      const what = JSON.stringify(window);
      const shown: string[] = [];
      let total: number | undefined;
      for (let page = 1; page < 10; page++) {
        const res = await invoke('GET', 'en', '/events', { token, query: { ...window, per_page: 2, page } });
        if (page > 1 && res.status === 404) break;
        expect(res.status, `${what} page ${page}: ${JSON.stringify(res.body)}`).toBe(200);
        total ??= res.body.total as number;
        expect([res.body.total, res.headers['X-TEC-Total']], what).toEqual([total, String(total)]);
        shown.push(...res.body.events.map((e: { title: string }) => e.title));
        if (res.body.events.length < 2) break;
      }
      expect(shown.length, `${what}: ${shown.join(', ')}`).toBe(total);
      // Listed by their start: every window holds the starts of these.
      expect(shown, what).toEqual(expect.arrayContaining(broken.filter((t) => !(window.ends_after && t === 'End numeric'))));
    }
  });
});
