// The demo calendar: venues, organizers, categories and tags in en, lt and ru, and events over
// 30 months (weekly series, all-day and multi-day events, free and paid), written through the real
// handlers with an editor token, after the few records the examples of /doc name (so that "Try
// it out" on /docs works as it is). Idempotent: a marker item records a finished seed.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { planSeed, runSeed, type EventPlan, type SeedPlan } from './demo-calendar.js';
import { passwordKey } from '#lib/auth/app-password-key.js';
import { generatePassword, hashPassword } from '#lib/auth/app-passwords.js';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { DEMO_RECORDS } from '#lib/docs/examples.js';
import { userIdOf } from '#lib/store/users.js';
import { createAppPassword } from '#lib/store/credentials.js';
import { ensureDevKeys, mintToken } from './dev-auth.js';
import { invoke } from './invoke.js';

const MARKER = { pk: 'SEED#demo', sk: 'SEED' };

const SERIES: Record<'en' | 'lt' | 'ru', [string, number][]> = {
  en: [
    ['Tuesday Jazz Night', 19],
    ['Saturday Morning Yoga', 9],
  ],
  lt: [
    ['Trečiadienio kino vakaras', 18],
    ['Sekmadienio turgus', 10],
  ],
  ru: [
    ['Четверговый лекторий', 19],
    ['Воскресная экскурсия', 11],
  ],
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

/**
 * The records of DEMO_RECORDS, made one at a time before anything else, so that on an empty table
 * they get the ids the examples use (records are numbered in the order they are made).
 */
async function seedExamples(token: string, now: Date): Promise<void> {
  const d = DEMO_RECORDS;
  const make = async (path: string, body: Record<string, unknown>, want: { id: number; slug: string }) => {
    const res = await invoke('POST', 'en', path, { body, token });
    if (res.status !== 201) throw new Error(`POST /en${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    if (res.body.id !== want.id || res.body.slug !== want.slug) {
      console.warn(`The table was not empty: the demo record ${want.slug} got id ${res.body.id}, so the examples of /docs name other records.`);
    }
  };
  await make('/venues', { venue: d.venue.title, address: '1 Shore Road', city: 'Bristol', country: 'United Kingdom', zip: 'BS1 4QA' }, d.venue);
  await make('/organizers', { organizer: d.organizer.title, email: 'office@lakeside.example.org' }, d.organizer);
  const day = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
  await make(
    '/events',
    { title: d.event.title, start_date: `${day} 14:00`, end_date: `${day} 17:00`, venue: d.venue.id, organizer: [d.organizer.id], description: 'Tours, music and tea.' },
    d.event,
  );
  // Its password is not known to anyone: it is there to be read and revoked.
  const { sub, uuid, name } = d.appPassword;
  const role = 'editor' as const;
  await createAppPassword(
    { sub, login: sub, userId: await userIdOf(sub), role, roleIssuedAt: 0 },
    { uuid, appId: '', name, created: Math.floor(now.getTime() / 1000), hash: hashPassword(await passwordKey(), generatePassword()), role },
  );
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
  const total = plan.events.length;
  // The examples' event stands for one of the spread events.
  plan.events.shift();
  await seedExamples(token, now);
  await runSeed(plan, token, 8);
  await db().send(new PutCommand({ TableName: table, Item: { ...MARKER, events: total, at: new Date().toISOString() } }));
  return { seeded: true, events: total };
}
