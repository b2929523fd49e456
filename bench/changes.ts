// `npm run bench:changes`: what one page of GET /changes costs as the change log and the table grow.
// A few records are made through the real handlers (events with a venue, an organizer, categories
// and tags; venues; tags), then copied under new ids, each copy with its log entry, up to each size
// (default 1,000, then 20,000 records and entries, in one table). At each size it reads pages of
// 100 changes (the oldest, the middle, the newest; anonymous and editor) through the real handler
// and counts the DynamoDB requests and read units each consumed (deterministic). Writes
// bench/results/changes.json and the table in bench/README.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { makeCursor } from '#lib/domain/sync-cursor.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { invoke } from '#lib/local/invoke.js';
import { cursorKey } from '#lib/logic/changes.js';
import { entryPosition, positionTime } from '#lib/store/change-log.js';
import { capacity, db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import type { ChangeEntryItem } from '#lib/store/items.js';
import { getItem } from '#lib/store/reads.js';
import { TTL_ATTRIBUTE } from '#lib/store/table.js';
import { pool } from '#lib/runtime/pool.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { renderChanges, runContext, writeTable, type ChangesResults } from './readme.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'changes.json');

const settings = benchCli(
  'bench:changes',
  `Grows the change log and the table to each size (copies of records made through the handlers, a log
entry each) and counts the DynamoDB requests and read units of pages of GET /changes (a few minutes).
Writes bench/results/changes.json and the table in bench/README.md.`,
  {
    BENCH_SIZES: { meaning: 'records (and log entries) at each measurement, comma-separated', default: '1000,20000' },
    BENCH_PER_PAGE: { meaning: 'changes per page', default: 100 },
  },
);

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];
/** The first copy's id: far above what the handlers made. */
const FIRST_ID = 100_000;
/** The log's entries start an hour ago, a millisecond apart: settled. */
const START = Date.now() - 3_600_000;

type Template = { kind: ChangeEntryItem['kind']; item: Record<string, unknown> };

async function templates(token: string): Promise<Template[]> {
  const post = async (path: string, body: unknown) => {
    const res = await invoke('POST', 'en', path, { body, token });
    if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as number;
  };
  const categories = [await post('/categories', { name: 'Bench Concerts' }), await post('/categories', { name: 'Bench Talks' })];
  const tags = [await post('/tags', { name: 'bench-outdoor' }), await post('/tags', { name: 'bench-free' })];
  const venue = await post('/venues', { venue: 'Bench Hall', city: 'Vilnius', address: 'Gedimino pr. 1' });
  const organizer = await post('/organizers', { organizer: 'Bench Org', email: 'bench@example.com' });
  const event = await post('/events', {
    title: 'Bench Concert',
    description: '<p>An evening of music, with a long enough description to look like a real event. '.repeat(8),
    start_date: '2031-05-01 19:00',
    end_date: '2031-05-01 22:00',
    venue,
    organizer: [organizer],
    categories,
    tags,
    cost: '25',
  });
  const stored = async (key: { pk: string; sk: string }) => (await getItem(key as ReturnType<typeof keys.post>)) as unknown as Record<string, unknown>;
  // Of every ten records: seven events, a venue, an organizer, a tag.
  const e = { kind: 'event' as const, item: await stored(keys.post(event)) };
  return [
    e,
    e,
    e,
    e,
    e,
    e,
    e,
    { kind: 'venue', item: await stored(keys.post(venue)) },
    { kind: 'organizer', item: await stored(keys.post(organizer)) },
    { kind: 'tag', item: await stored(keys.term(tags[0]!)) },
  ];
}

/** Copy `n` of a template under a new id, and its log entry (a create, or an update of every third). */
function copy(n: number, t: Template): Record<string, unknown>[] {
  const id = FIRST_ID + n;
  const item: Record<string, unknown> = { ...t.item, id, slug: `${String(t.item.slug)}-${n}` };
  for (const a of INDEX_ATTRIBUTES) delete item[a];
  Object.assign(item, t.kind === 'tag' ? keys.term(id) : keys.post(id));
  const changeId = `bench-${n}`;
  const at = START + n;
  const entry: ChangeEntryItem = {
    ...keys.changeEntry('en', entryPosition(at, String(n), changeId)),
    kind: t.kind,
    id,
    action: n % 3 ? 'create' : 'update',
    at: new Date(at).toISOString(),
    wasPublic: n % 3 === 0,
    changeId,
    [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + 86_400,
  };
  return [item, entry as unknown as Record<string, unknown>];
}

async function grow(from: number, to: number, list: Template[]): Promise<void> {
  const chunks: number[][] = [];
  for (let n = from; n < to; n += 12) chunks.push(Array.from({ length: Math.min(12, to - n) }, (_, i) => n + i));
  await pool(chunks, 8, async (chunk) => {
    let pending = chunk.flatMap((n) => copy(n, list[n % list.length]!)).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [config().tableName]: pending } }));
      pending = (out.UnprocessedItems?.[config().tableName] ?? []) as typeof pending;
    }
  });
}

/** The cost of one page after entry `n` (-1: from before the first). */
async function page(n: number, perPage: number, token: string | undefined) {
  const key = await cursorKey();
  const position = n < 0 ? new Date(START - 1).toISOString() : entryPosition(START + n, String(n), `bench-${n}`);
  const since = makeCursor(`en|${position}`, positionTime(position), key);
  let last: { status: number; changes: number; requests: number; read: number } | undefined;
  // The same page three times: the figures of the last (the first warms the process).
  for (let i = 0; i < 3; i++) {
    capacity.reset();
    const res = await invoke('GET', 'en', '/changes', { query: { since, per_page: perPage }, token });
    const used = capacity.snapshot();
    last = { status: res.status, changes: res.body?.changes?.length ?? 0, requests: used.requests, read: used.read };
  }
  if (last!.status !== 200) throw new Error(`GET /changes answered ${last!.status}`);
  return last!;
}

async function main(): Promise<number> {
  const sizes = (settings.text('BENCH_SIZES') ?? '').split(',').map(Number);
  const perPage = settings.count('BENCH_PER_PAGE');
  const table = await benchTable('changes');
  try {
    const editor = mintToken(table.keys, { role: 'editor', sub: 'bench-changes', ttl: '12h' });
    const list = await templates(await editor);
    const results: ChangesResults['sizes'] = [];
    let made = 0;
    for (const size of sizes) {
      const started = Date.now();
      await grow(made, size, list);
      made = size;
      console.log(`${size} records and entries (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      const variants = [
        ['oldest 100, anonymous', await page(-1, perPage, undefined)],
        ['middle 100, anonymous', await page(Math.floor(size / 2), perPage, undefined)],
        ['newest 100, anonymous', await page(size - perPage - 1, perPage, undefined)],
        ['oldest 100, editor', await page(-1, perPage, await editor)],
      ] as const;
      for (const [label, r] of variants) console.log(`  ${label}: ${r.changes} changes, ${r.requests} requests, ${r.read} RCU`);
      results.push({ size, variants: variants.map(([label, r]) => ({ label, ...r })) });
    }
    const out: ChangesResults = { generatedAt: new Date().toISOString(), ...runContext(), perPage, sizes: results };
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(out, null, 2)}\n`);
    await writeTable('changes', renderChanges(out));
    const worst = Math.max(...results[0]!.variants.map((v, i) => results.at(-1)!.variants[i]!.read / v.read));
    console.log(`largest read-unit ratio, ${sizes.at(-1)} against ${sizes[0]}: ${worst.toFixed(2)}`);
    return worst > 1.2 ? 1 : 0;
  } finally {
    await table.dynamo?.stop();
  }
}

runBench(main);
