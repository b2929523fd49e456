// The demo calendar: venues, organizers, categories and tags in en, lt and ru, and events over
// 30 months (series, all-day and multi-day events, free and paid), written through the real
// handlers with an editor token. Idempotent: a marker item records a finished seed.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { planSeed, runSeed } from '../../bench/seed.js';
import { config } from '../config.js';
import { db } from '../db.js';
import { ensureDevKeys, mintToken } from './dev-auth.js';

const MARKER = { pk: 'SEED#demo', sk: 'SEED' };

/** Seeds the current table (DYNAMODB_ENDPOINT, TABLE_NAME) unless it was seeded already. */
export async function seedDemo(events = 300): Promise<{ seeded: boolean; events: number }> {
  const table = config().tableName;
  const done = await db().send(new GetCommand({ TableName: table, Key: MARKER }));
  if (done.Item) return { seeded: false, events: Number(done.Item.events ?? 0) };
  const token = await mintToken(await ensureDevKeys(), { role: 'editor', sub: 'demo-editor' });
  const plan = planSeed(events, 2026, new Date());
  await runSeed(plan, token, 8);
  await db().send(new PutCommand({ TableName: table, Item: { ...MARKER, events, at: new Date().toISOString() } }));
  return { seeded: true, events };
}
