// A live TEC site moved here with `npm run import`: a calendar of hard cases is made on the live
// site through TEC's REST API (texts of the corpus, several zones, DST edges, all-day and
// multi-day events, every status, a password, a trashed event, nested categories, a shared
// venue), the whole site is imported into a fresh table, and every record made is read on both
// sites, as an editor and anonymously, and compared field by field. Links differ by the site's
// URL only. A second run writes nothing.
import { readFileSync, existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { importLive } from '#lib/import/run.js';
import { invoke } from '#lib/local/invoke.js';
import { useGateway } from '../support/gateway.js';
import { liveTec, TEC } from '../support/live-tec.js';

const run = `imp${Date.now().toString(36)}`;
const CORPUS = '../shared/reference/tec-corpus/text.jsonl';

/** A few stored texts of the corpus (titles and descriptions TEC keeps as they are sent, or changes). */
function corpusTexts(field: string, n: number): string[] {
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

describe('importing the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-import' });
  let site: { credentials: string; auth: string };
  const ids = { events: [] as number[], venues: [] as number[], organizers: [] as number[], categories: [] as number[], tags: [] as number[] };

  const tec = async (method: string, route: string, body?: unknown, anonymous = false) => {
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
    return res.body as { id: number };
  };

  beforeAll(async () => {
    site = await liveTec();
    const parent = await make('/tribe/events/v1/categories', { name: `Music ${run}`, description: 'All music' });
    const child = await make('/tribe/events/v1/categories', { name: `Jazz ${run}`, parent: parent.id });
    const grandchild = await make('/tribe/events/v1/categories', { name: `Bebop ${run}`, parent: child.id });
    const tag = await make('/tribe/events/v1/tags', { name: `Outdoor ${run}` });
    ids.categories.push(parent.id, child.id, grandchild.id);
    ids.tags.push(tag.id);
    const hall = await make('/tribe/events/v1/venues', {
      venue: `Hall ${run}`,
      address: '1 Main St',
      city: 'Vilnius',
      country: 'Lithuania',
      zip: '01100',
      website: 'https://hall.example',
      phone: '+370 1',
    });
    const park = await make('/tribe/events/v1/venues', { venue: `Park ${run}`, city: 'Sydney', country: 'Australia' });
    const org = await make('/tribe/events/v1/organizers', { organizer: `Org ${run}`, email: 'org@example.com', phone: '555', website: 'https://org.example' });
    const org2 = await make('/tribe/events/v1/organizers', { organizer: `Second org ${run}` });
    ids.venues.push(hall.id, park.id);
    ids.organizers.push(org.id, org2.id);
    const titles = corpusTexts('title', 8);
    const descriptions = corpusTexts('description', 8);
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
      { start_date: '2027-03-14 01:30:00', end_date: '2027-03-14 03:30:00', timezone: 'America/New_York', organizer: [org.id], featured: true },
      { start_date: '2027-07-01 00:00:00', end_date: '2027-07-03 23:59:59', all_day: true, venue: park.id, categories: [parent.id] },
      { start_date: '2027-08-10 18:00:00', end_date: '2027-08-12 20:00:00', timezone: 'Asia/Kolkata', website: 'https://ev.example', sticky: true },
      { start_date: '2027-09-01 09:00:00', end_date: '2027-09-01 10:00:00', timezone: 'UTC', hide_from_listings: true, venue: hall.id },
      { start_date: '2027-12-31 23:00:00', end_date: '2028-01-01 01:00:00', timezone: 'Pacific/Chatham', status: 'draft' },
      { start_date: '2027-05-05 10:00:00', end_date: '2027-05-05 11:00:00', status: 'pending', venue: hall.id },
      { start_date: '2027-05-06 10:00:00', end_date: '2027-05-06 11:00:00', status: 'private', organizer: [org2.id] },
      { start_date: '2027-05-07 10:00:00', end_date: '2027-05-07 11:00:00', venue: park.id, categories: [child.id, parent.id] },
      { start_date: '2027-05-08 10:00:00', end_date: '2027-05-08 11:00:00', venue: hall.id },
    ];
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
    const [login, password] = [site.credentials.slice(0, site.credentials.indexOf(':')), site.credentials.slice(site.credentials.indexOf(':') + 1)];
    const summary = await importLive({
      site: { url: TEC, user: login, appPassword: password, concurrency: 4 },
      since: null,
      send: invoke,
      token: await gw.token('editor', 'site-import'),
    });
    expect(summary.failed).toEqual([]);
  }, 180_000);

  /** A record's JSON with the site's URLs made relative (`/wp-json` and this API's `/en` alike). */
  const relative = (v: unknown, origin: string) =>
    JSON.parse(
      JSON.stringify(v)
        .replaceAll(`${origin.replaceAll('/', '\\/')}\\/wp-json`, '')
        .replaceAll(`${origin.replaceAll('/', '\\/')}\\/en`, '')
        .replaceAll(origin.replaceAll('/', '\\/'), '')
        .replaceAll(`${origin}/wp-json`, '')
        .replaceAll(`${origin}/en`, '')
        .replaceAll(origin, ''),
    );

  /**
   * The documented deviations: every record here has a `lang` key (DESIGN §1), and TEC hides
   * e-mail addresses behind random character entities (antispambot), which differ on every read.
   */
  const deviations = (v: unknown, ours: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => deviations(x, ours));
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (ours && k === 'lang') continue;
      // TEC's term routes answer with WordPress's _links; this API's term routes have none.
      if (!ours && k === '_links') continue;
      out[k] = k === 'email' && typeof x === 'string' ? x.replace(/&#(x?)([0-9a-f]+);/gi, (_, hex, n) => String.fromCharCode(parseInt(n, hex ? 16 : 10))) : deviations(x, ours);
    }
    return out;
  };

  const compare = async (route: string, anonymous: boolean) => {
    const theirs = await tec('GET', `/tribe/events/v1${route}`, undefined, anonymous);
    const ours = await gw.api('GET', route, anonymous ? {} : { token: 'editor' });
    expect({ route, anonymous, status: ours.status }).toEqual({ route, anonymous, status: theirs.status });
    const [a, b] = [deviations(relative(ours.body, gw.origin), true) as any, deviations(relative(theirs.body, TEC), false) as any];
    // Documented deviation: a draft or pending event never published has no GMT dates on the site (TEC shows
    // 0000-00-00 00:00:00), no slug and a link by id; here it has its dates in UTC, a slug from its
    // title and its permalink (which it also shows as its website, as TEC shows its link).
    if (b?.date_utc === '0000-00-00 00:00:00')
      for (const x of [a, b]) {
        for (const k of ['date_utc', 'modified_utc', 'url', 'slug', 'website']) delete x[k];
        if (x.json_ld) delete x.json_ld.url;
        if (x.json_ld?.offers) delete x.json_ld.offers.url;
      }
    expect(a).toEqual(b);
  };

  it('answers GET of every imported event as the site does, for an editor and anonymously', async () => {
    for (const id of ids.events) for (const anonymous of [false, true]) await compare(`/events/${id}`, anonymous);
  });

  it('answers GET of every imported venue, organizer and term as the site does', async () => {
    for (const id of ids.venues) for (const anonymous of [false, true]) await compare(`/venues/${id}`, anonymous);
    for (const id of ids.organizers) for (const anonymous of [false, true]) await compare(`/organizers/${id}`, anonymous);
    for (const id of ids.categories) await compare(`/categories/${id}`, true);
    for (const id of ids.tags) await compare(`/tags/${id}`, true);
  });

  it('writes nothing on a second run', async () => {
    const [login, password] = [site.credentials.slice(0, site.credentials.indexOf(':')), site.credentials.slice(site.credentials.indexOf(':') + 1)];
    const summary = await importLive({
      site: { url: TEC, user: login, appPassword: password, concurrency: 4 },
      since: null,
      send: invoke,
      token: await gw.token('editor', 'site-import'),
    });
    for (const t of Object.values(summary.kinds)) expect({ created: t.created, updated: t.updated }).toEqual({ created: 0, updated: 0 });
  }, 120_000);
});
