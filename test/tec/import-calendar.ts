// What the import tests against the live TEC share: requests to the site as its admin, a calendar
// of hard cases made there through TEC's REST API (every record named with the run's marker),
// and an import of the live site bounded to what the test made.
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { importLive } from '#lib/import/run.js';
import type { ImportSummary } from '#lib/import/writer.js';
import { invoke } from '#lib/local/invoke.js';
import { liveTec, TEC } from '../support/live-tec.js';

export interface SiteReply {
  status: number;
  body: any;
}

/** The live site, signed in as its admin with the application password. */
export async function liveSite() {
  const site = await liveTec();
  const colon = site.credentials.indexOf(':');
  const login = site.credentials.slice(0, colon);
  const password = site.credentials.slice(colon + 1);
  const tec = async (method: string, route: string, body?: unknown, anonymous = false): Promise<SiteReply> => {
    const res = await fetch(`${TEC}/wp-json${route}`, {
      method,
      headers: { ...(anonymous ? {} : { authorization: site.auth }), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const make = async (route: string, body: Record<string, unknown>) => {
    const res = await tec('POST', route, body);
    if (res.status >= 300) throw new Error(`POST ${route} -> ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body as { id: number } & Record<string, unknown>;
  };
  return { ...site, login, password, tec, make };
}

export type LiveSiteClient = Awaited<ReturnType<typeof liveSite>>;

// A 1×1 PNG, for a featured image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export interface CalendarIds {
  events: number[];
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

/**
 * The hard cases, made on the live site: nested categories, a tag, shared venues, two organizers,
 * events in several zones and across DST edges, all-day and multi-day, every status, a password,
 * featured, sticky, hidden, a trashed one, and three that have ended (a draft, and one hidden from listings). `texts` gives titles and descriptions.
 */
export async function makeCalendar(site: LiveSiteClient, run: string, texts: { titles: string[]; descriptions: string[] }): Promise<CalendarIds> {
  const { make, tec } = site;
  const ids: CalendarIds = { events: [], venues: [], organizers: [], categories: [], tags: [] };
  const parent = await make('/tribe/events/v1/categories', { name: `Music ${run}`, description: 'All music' });
  const child = await make('/tribe/events/v1/categories', { name: `Jazz ${run}`, parent: parent.id });
  const grandchild = await make('/tribe/events/v1/categories', { name: `Bebop ${run}`, parent: child.id });
  const tag = await make('/tribe/events/v1/tags', { name: `Outdoor ${run}` });
  ids.categories.push(parent.id, child.id, grandchild.id);
  ids.tags.push(tag.id);
  const hall = await make('/tribe/events/v1/venues', {
    venue: `Hall ${run}`,
    description: '<p>A hall &amp; a stage</p>',
    address: '1 Main St',
    city: 'Vilnius',
    country: 'Lithuania',
    zip: '01100',
    website: 'https://hall.example',
    phone: '+370 1',
  });
  const park = await make('/tribe/events/v1/venues', { venue: `Park ${run}`, city: 'Sydney', country: 'Australia' });
  const org = await make('/tribe/events/v1/organizers', {
    organizer: `Org ${run}`,
    email: 'org@example.com',
    phone: '555',
    website: 'https://org.example',
    description: 'Organizes',
  });
  const org2 = await make('/tribe/events/v1/organizers', { organizer: `Second org ${run}` });
  ids.venues.push(hall.id, park.id);
  ids.organizers.push(org.id, org2.id);
  const upload = await fetch(`${TEC}/wp-json/wp/v2/media`, {
    method: 'POST',
    headers: { authorization: site.auth, 'content-type': 'image/png', 'content-disposition': `attachment; filename="poster-${run}.png"` },
    body: new Uint8Array(PNG),
  });
  expect(upload.status).toBe(201);
  const image = ((await upload.json()) as { id: number }).id;
  const cases: Record<string, unknown>[] = [
    {
      start_date: '2027-03-28 01:30:00',
      end_date: '2027-03-28 04:30:00',
      timezone: 'Europe/Vilnius',
      venue: hall.id,
      organizer: [org.id, org2.id],
      categories: [grandchild.id],
      tags: [tag.id],
      cost: '15',
    },
    { start_date: '2027-10-31 02:30:00', end_date: '2027-10-31 03:30:00', timezone: 'Europe/Vilnius', venue: hall.id, categories: [child.id] },
    { start_date: '2027-04-04 01:00:00', end_date: '2027-04-04 04:00:00', timezone: 'Australia/Sydney', venue: park.id, cost: 'Free' },
    { start_date: '2027-03-14 01:30:00', end_date: '2027-03-14 03:30:00', timezone: 'America/New_York', organizer: [org.id], featured: true, image: String(image) },
    { start_date: '2027-07-01 00:00:00', end_date: '2027-07-03 23:59:59', all_day: true, venue: park.id, categories: [parent.id] },
    { start_date: '2027-08-10 18:00:00', end_date: '2027-08-12 20:00:00', timezone: 'Asia/Kolkata', website: 'https://ev.example', sticky: true },
    { start_date: '2027-09-01 09:00:00', end_date: '2027-09-01 10:00:00', timezone: 'UTC', hide_from_listings: true, venue: hall.id },
    { start_date: '2027-12-31 23:00:00', end_date: '2028-01-01 01:00:00', timezone: 'Pacific/Chatham', status: 'draft' },
    { start_date: '2027-05-05 10:00:00', end_date: '2027-05-05 11:00:00', status: 'pending', venue: hall.id },
    { start_date: '2027-05-06 10:00:00', end_date: '2027-05-06 11:00:00', status: 'private', organizer: [org2.id] },
    { start_date: '2027-05-07 10:00:00', end_date: '2027-05-07 11:00:00', venue: park.id, categories: [child.id, parent.id] },
    { start_date: '2027-05-08 10:00:00', end_date: '2027-05-08 11:00:00', venue: hall.id },
    // Events that have ended, which TEC's wp/v2 collection leaves out.
    { start_date: '2020-02-03 10:00:00', end_date: '2020-02-03 11:00:00', timezone: 'Europe/Vilnius', venue: hall.id, categories: [child.id], cost: '5' },
    { start_date: '2019-06-01 00:00:00', end_date: '2019-06-01 23:59:59', all_day: true, status: 'draft', organizer: [org.id] },
    // One that has ended and is hidden from listings, which TEC's own list leaves out too.
    { start_date: '2021-11-20 19:00:00', end_date: '2021-11-20 21:00:00', hide_from_listings: true, venue: park.id },
  ];
  const { titles, descriptions } = texts;
  for (const [i, c] of cases.entries()) {
    const e = await make('/tribe/events/v1/events', {
      title: `${titles[i % titles.length]} ${run} ${i}`,
      description: descriptions[i % descriptions.length],
      excerpt: i % 3 ? undefined : 'A short excerpt',
      ...c,
    });
    ids.events.push(e.id);
  }
  // A password (wp/v2 only) and a trashed event.
  await make(`/wp/v2/tribe_events/${ids.events[10]}`, { password: 'secret' });
  const trashed = await tec('DELETE', `/tribe/events/v1/events/${ids.events[11]}`);
  expect(trashed.status).toBe(200);
  return ids;
}

/** Every record's id of a calendar, as `kind#id` (the import's failures are named so). */
export const calendarKeys = (ids: CalendarIds): Set<string> =>
  new Set([
    ...ids.events.map((id) => `event#${id}`),
    ...ids.venues.map((id) => `venue#${id}`),
    ...ids.organizers.map((id) => `organizer#${id}`),
    ...ids.categories.map((id) => `category#${id}`),
    ...ids.tags.map((id) => `tag#${id}`),
  ]);

/**
 * The live site imported into the current table, only the posts modified since `since` (the
 * test's start: what it made), with the editor's token. Others may write on the same site
 * meanwhile: only failures of the test's own records count.
 */
export async function importMine(
  site: LiveSiteClient,
  since: string | null | undefined,
  token: string,
  mine: Set<string>,
  more: { deleteMissing?: boolean } = {},
): Promise<ImportSummary & { since?: string }> {
  const summary = await importLive({ site: { url: TEC, user: site.login, appPassword: site.password, concurrency: 4 }, since, send: invoke, token, ...more });
  expect(summary.failed.filter((f) => mine.has(`${f.kind}#${f.id}`))).toEqual([]);
  return summary;
}

/** The time of this moment, as `--since` takes it. */
export const now = () => new Date().toISOString();

const CORPUS = '../shared/reference/tec-corpus/text.jsonl';

/** A few stored texts of the corpus (titles and descriptions TEC keeps as they are sent, or changes). */
export function corpusTexts(field: string, n: number): string[] {
  if (!existsSync(CORPUS)) return ['Plain & simple', '<p>Ąžuolas "quoted"</p>'];
  const rows = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; field: string; input: string });
  const picked = rows.filter((r) => r.kind === 'event' && r.field === field && r.input.trim() !== '');
  const step = Math.max(1, Math.floor(picked.length / n));
  return picked
    .filter((_, i) => i % step === 0)
    .slice(0, n)
    .map((r) => r.input);
}
