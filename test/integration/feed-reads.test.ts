// A feed's records read within what one answer may hold (lib/logic/feed-reads.ts): the longest
// prefix within the bytes and within the request's read units (keeping the reserve for linked
// records), never a request the budget refuses; small records are all read.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_BUDGET } from '#lib/contract/budget.js';
import { LINKED_RESERVE, readFitting } from '#lib/logic/feed-reads.js';
import { emptyTally } from '#lib/observe/capacity.js';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { itemKey } from '#lib/store/reads.js';
import { useFreshTable } from '../support/table.js';

const KB = 1024;
const key = (group: string, i: number) => itemKey<Record<string, unknown>>(`FEEDREAD#${group}`, String(i).padStart(4, '0'));

async function putItems(group: string, n: number, bytes: number) {
  for (let i = 0; i < n; i++) await db().send(new PutCommand({ TableName: config().tableName, Item: { ...key(group, i), text: 'x'.repeat(bytes) } }));
}
const keysOf = (group: string, n: number) => Array.from({ length: n }, (_, i) => key(group, i));

describe('reading the records of a feed', () => {
  useFreshTable('feed-reads');

  beforeAll(async () => {
    await putItems('heavy', 60, 40 * KB);
    await putItems('light', 130, 200);
  });

  it('reads every small record', async () => {
    const { found, count } = await readFitting(keysOf('light', 130));
    expect([found.size, count]).toEqual([130, 130]);
  });

  it('stops at the bytes one feed may hold, keeping the soonest', async () => {
    const { found, count } = await readFitting(keysOf('heavy', 60), 1_000 * KB);
    // 40 KB records: 24 fit in 1,000 KB, the 25th does not.
    expect(count).toBe(24);
    expect([...found.keys()]).toEqual(keysOf('heavy', 24).map((k) => `${k.pk}|${k.sk}`));
  });

  it('stops within the read units left, without a refusal, and keeps the reserve', async () => {
    // A request that has already spent all but 100 units before the reserve.
    const used = { ...emptyTally(), read: REQUEST_BUDGET.readUnits - LINKED_RESERVE - 100 };
    const { found, count } = await capacity.scoped(used, () => readFitting(keysOf('heavy', 60), 100 * 1024 * KB));
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(60);
    expect(found.size).toBe(count);
    expect(used.read).toBeLessThanOrEqual(REQUEST_BUDGET.readUnits);
    // Without the budget (outside a request) and the bytes, it reads everything.
    expect((await readFitting(keysOf('heavy', 60), 100 * 1024 * KB)).count).toBe(60);
  });

  it('passes over records that are gone, counting them in the prefix', async () => {
    const list = [key('light', 0), key('light', 9999), key('light', 1)];
    const { found, count } = await readFitting(list);
    expect(count).toBe(3);
    expect(found.size).toBe(2);
  });

  it('counts the records it is given in the prefix without reading them again', async () => {
    const all = await readFitting<Record<string, unknown>>(keysOf('heavy', 10), 100 * 1024 * KB);
    const known = new Map([...all.found].slice(0, 5));
    const tally = emptyTally();
    const { found, count } = await capacity.scoped(tally, () => readFitting(keysOf('heavy', 30), 1_000 * KB, known));
    // The five given take their room: 24 fit in all, as when every record is read.
    expect(count).toBe(24);
    expect([...found.keys()]).toEqual(keysOf('heavy', 24).map((k) => `${k.pk}|${k.sk}`));
    expect(found.get(`${key('heavy', 0).pk}|${key('heavy', 0).sk}`)).toBe(known.get(`${key('heavy', 0).pk}|${key('heavy', 0).sk}`));
    // The five given are not read again: the read costs less than reading all of them.
    const everything = emptyTally();
    await capacity.scoped(everything, () => readFitting(keysOf('heavy', 30), 1_000 * KB));
    expect(tally.read).toBeLessThan(everything.read);
  });
});
