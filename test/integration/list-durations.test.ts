// List totals bound their end-date corrections with the durations the count buckets carry
// (lib/store/durations.ts): no STATS read, no correction read where the buckets show no event,
// and buckets written before they carried durations still give exact totals.
import { PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config, resetConfig } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { keys } from '#lib/store/keys.js';
import { durationBound } from '#lib/store/stats.js';
import { useFreshTable } from '../support/table.js';

/** The table's change counter, which every read reads beside its own (lib/store/validators.ts). */
const COUNTER = 1;

let editorToken: string;
// Days of one month two months ahead, so that the window below is one count bucket.
const month = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
})();
const day = (n: number) => new Date(month.getTime() + (n - 1) * 86_400_000).toISOString().slice(0, 10);
const ids: Record<string, number> = {};

async function make(name: string, start: string, end: string) {
  const res = await invoke('POST', 'en', '/events', { body: { title: name, start_date: start, end_date: end, status: 'publish' }, token: editorToken });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ids[name] = res.body.id;
}

async function list(query: Record<string, string>) {
  capacity.reset();
  const res = await invoke('GET', 'en', '/events', { query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { total: res.body.total as number, ids: (res.body.events as { id: number }[]).map((e) => e.id), used: capacity.snapshot() };
}

/** Every count bucket of the table, as an older version wrote them: without durations. */
async function forgetDurations(): Promise<number> {
  const { Items = [] } = await db().send(
    new ScanCommand({ TableName: config().tableName, FilterExpression: 'begins_with(pk, :c)', ExpressionAttributeValues: { ':c': 'COUNT#' } }),
  );
  for (const b of Items) await db().send(new UpdateCommand({ TableName: config().tableName, Key: { pk: b.pk, sk: b.sk }, UpdateExpression: 'REMOVE ds' }));
  return Items.length;
}

describe('list totals bounded by the buckets', () => {
  useFreshTable('list-durations');
  const window = { start_date: day(1), end_date: day(20) };
  const after = { start_date: day(60), end_date: day(70) };

  beforeAll(async () => {
    editorToken = await roleToken('editor', 'durations-editor');
    await make('long', `${day(10)} 10:00:00`, `${day(50)} 10:00:00`);
    await make('short', `${day(12)} 10:00:00`, `${day(12)} 11:00:00`);
    await make('early', `${day(3)} 10:00:00`, `${day(3)} 12:00:00`);
  });

  it('leaves out an event that ends after the window, without reading STATS', async () => {
    const r = await list(window);
    expect(r.ids).toEqual([ids.early, ids.short]);
    expect(r.total).toBe(2);
    expect(r.used.commands.GetItemCommand).toBeUndefined();
    // The page, the buckets, the end correction, the records, and the change counter beside them.
    expect(r.used.commands).toEqual({ QueryCommand: 3 + COUNTER, BatchGetItemCommand: 1 });
  });

  it('reads no correction where the buckets show no event', async () => {
    const r = await list(after);
    expect(r.total).toBe(0);
    expect(r.used.commands).toEqual({ QueryCommand: 2 + COUNTER });
  });

  it('reads STATS for buckets written without durations, and stays exact', async () => {
    expect(await forgetDurations()).toBeGreaterThan(0);
    const r = await list(window);
    expect(r.total).toBe(2);
    expect(r.ids).toEqual([ids.early, ids.short]);
    expect(r.used.commands.GetItemCommand).toBe(1);
  });

  it('a write into such a bucket bounds the events it held before', async () => {
    await make('later', `${day(12)} 14:00:00`, `${day(12)} 15:00:00`);
    const r = await list(window);
    expect(r.total).toBe(3);
    expect(r.ids).toEqual([ids.early, ids.short, ids.later]);
  });

  it('in another site zone, reads a partial first or last day only where the buckets count events', async () => {
    // 02:00 UTC is the evening before in New York: outside a window that starts on day 3 there.
    await make('night', `${day(3)} 02:00:00`, `${day(3)} 03:00:00`);
    process.env.SITE_TIMEZONE = 'America/New_York';
    resetConfig();
    try {
      const r = await list({ ...window, start_date: day(3) });
      expect(r.ids).toEqual([ids.early, ids.short, ids.later]);
      expect(r.total).toBe(3);
      // The page, the buckets, the first day's correction (its UTC day holds events), the end
      // correction, the change counter; the last UTC day holds none.
      expect(r.used.commands).toEqual({ QueryCommand: 4 + COUNTER, BatchGetItemCommand: 1 });
      const none = await list(after);
      expect(none.total).toBe(0);
      expect(none.used.commands).toEqual({ QueryCommand: 2 + COUNTER });
    } finally {
      delete process.env.SITE_TIMEZONE;
      resetConfig();
    }
  });

  it('the bound a write adds covers what STATS held before this process wrote', async () => {
    // Another process (or an older version) stored a longer duration for this language.
    await db().send(new PutCommand({ TableName: config().tableName, Item: { ...keys.langStats('lt'), seconds: 5_000_000 } }));
    expect(await durationBound('lt', 60)).toBe(5_000_000);
    expect(await durationBound('lt', 6_000_000)).toBe(6_000_000);
  });
});
