// The demo calendar: venues, organizers, categories and tags in en, lt and ru, and events over
// 30 months (weekly series, all-day and multi-day events, free and paid), written through the real
// handlers with an editor token. Idempotent: a marker item records a finished seed.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { planSeed, runSeed, type EventPlan, type SeedPlan } from '../../bench/seed.js';
import { config } from '../config.js';
import { db } from '../db.js';
import { ensureDevKeys, mintToken } from './dev-auth.js';

const MARKER = { pk: 'SEED#demo', sk: 'SEED' };

const SERIES: Record<'en' | 'lt' | 'ru', [string, number][]> = {
  en: [['Tuesday Jazz Night', 19], ['Saturday Morning Yoga', 9]],
  lt: [['Trečiadienio kino vakaras', 18], ['Sekmadienio turgus', 10]],
  ru: [['Четверговый лекторий', 19], ['Воскресная экскурсия', 11]],
};

/** Weekly series (8 occurrences each, same title, venue and time), which look recurring in lists. */
function addSeries(plan: SeedPlan, now: Date): void {
  const two = (n: number) => String(n).padStart(2, '0');
  for (const lang of ['en', 'lt', 'ru'] as const) {
    SERIES[lang].forEach(([title, hour], i) => {
      for (let week = 0; week < 8; week++) {
        const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2 + i + week * 7));
        const ymd = `${day.getUTCFullYear()}-${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}`;
        const event: EventPlan = {
          lang,
          body: { title, start_date: `${ymd} ${two(hour)}:00`, end_date: `${ymd} ${two(hour + 2)}:00`, status: 'publish', cost: i ? '0' : '12' },
          venue: i % plan.venues[lang].length,
          organizers: [0],
          categories: [i % plan.categories[lang].length],
          tags: [],
          utcDay: ymd,
          status: 'publish',
          featured: false,
        };
        plan.events.push(event);
      }
    });
  }
}

/** Seeds the current table (DYNAMODB_ENDPOINT, TABLE_NAME) unless it was seeded already: `events` spread events plus 48 of weekly series. */
export async function seedDemo(events = 300): Promise<{ seeded: boolean; events: number }> {
  const table = config().tableName;
  const done = await db().send(new GetCommand({ TableName: table, Key: MARKER }));
  if (done.Item) return { seeded: false, events: Number(done.Item.events ?? 0) };
  const token = await mintToken(await ensureDevKeys(), { role: 'editor', sub: 'demo-editor' });
  const now = new Date();
  const plan = planSeed(events, 2026, now);
  addSeries(plan, now);
  await runSeed(plan, token, 8);
  const total = plan.events.length;
  await db().send(new PutCommand({ TableName: table, Item: { ...MARKER, events: total, at: new Date().toISOString() } }));
  return { seeded: true, events: total };
}
