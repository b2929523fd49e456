// What the clients of a TEC site do, as one journey: find the API, sign in, create a tag and
// events, page through a list, rename, read the core term routes and trash. Run against this API
// (test/e2e/tec-client.test.ts) and against the live TEC (test/tec/tec-client.test.ts); each step
// returns what it saw, in terms that do not depend on the site (no ids, URLs or times).
import { TecClient } from './tec-client.js';

export interface Journey {
  namespaces: string[];
  me: { status: number; signedIn: boolean };
  created: number[];
  listed: { titles: string[]; pages: number; total: number; nextForm: string[] };
  renamed: { status: number; title: string };
  tag: { status: number; name: string; slug: string; seenInList: boolean; countAfterLink: number };
  trashed: { status: number; anonymousTotal: number };
  anonymousWrite: { status: number; code: string };
  badPassword: { status: number; code: string };
}

const marker = () => `j${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;

/** The journey against the site at `site`, signed in as `credentials` (an editor's application password). */
export async function clientJourney(site: string, credentials: string, permalinks: 'pretty' | 'plain' = 'pretty'): Promise<Journey> {
  const client = new TecClient({ site, credentials, permalinks });
  const anonymous = new TecClient({ site, permalinks });
  const run = marker();
  const { namespaces } = await client.discover();
  const meAnswer = await client.me();

  const tagAnswer = await client.createTag(`Outdoor ${run}`);
  const created: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const res = await client.createEvent({
      title: `Journey ${run} ${i}`,
      description: `<p>Day ${i} & more</p>`,
      start_date: `2031-0${i}-10 18:00:00`,
      end_date: `2031-0${i}-10 20:00:00`,
      tags: [tagAnswer.body.id],
      status: 'publish',
    });
    if (res.status !== 201) throw new Error(`create ${i} answered ${res.status}: ${JSON.stringify(res.body)}`);
    created.push(res.status);
  }
  // Only this run's events: the site keeps every earlier run's (and other tests' events in 2031),
  // and paging through all of them two at a time grows slower with every run.
  const window = { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 2, search: run };
  // Read anonymously, as feed readers and site generators do (TEC's own next_rest_url for a
  // signed-in editor carries `status=any`, which its route refuses: a defect not copied here).
  const list = await anonymous.allEvents(window);
  const mine = list.events.filter((e) => String(e.title).includes(run));
  // The form of the links a client follows: the site's own, never another host or prefix.
  const firstPage = await anonymous.request('GET', client.url('/tribe/events/v1/events', window));
  const next = String(firstPage.body.next_rest_url ?? '');
  const nextForm = [next.startsWith(site.replace(/\/+$/, '')) ? 'site' : 'other', next.includes('/wp-json/') ? 'wp-json' : next.includes('rest_route=') ? 'rest_route' : 'other'];

  const first = mine[0]!;
  const renamed = await client.updateEvent(first.id, { title: `Renamed ${run}` });
  const tags = await client.allTerms('tags');
  const tag = tags.find((t) => t.id === tagAnswer.body.id);

  const trashed = await client.deleteEvent(first.id);
  const after = await anonymous.allEvents(window);

  const anonymousWrite = await anonymous.createEvent({ title: `Nope ${run}`, start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' });
  const bad = new TecClient({ site, credentials: `${credentials.split(':')[0]}:aaaa bbbb cccc dddd eeee ffff`, permalinks });
  const badAnswer = await bad.me();

  return {
    namespaces: namespaces.filter((n) => n === 'tribe/events/v1' || n === 'wp/v2'),
    me: { status: meAnswer.status, signedIn: Number(meAnswer.body?.id) > 0 },
    created,
    listed: { titles: mine.map((e) => String(e.title).replace(run, '*')), pages: list.pages, total: mine.length, nextForm },
    renamed: { status: renamed.status, title: String(renamed.body.title).replace(run, '*') },
    tag: {
      status: tagAnswer.status,
      name: String(tagAnswer.body.name).replace(run, '*'),
      slug: String(tagAnswer.body.slug).replace(run, '*'),
      seenInList: !!tag,
      countAfterLink: Number(tag?.count ?? -1),
    },
    trashed: { status: trashed.status, anonymousTotal: after.events.filter((e) => String(e.title).includes(run)).length },
    anonymousWrite: { status: anonymousWrite.status, code: String(anonymousWrite.body?.code) },
    badPassword: { status: badAnswer.status, code: String(badAnswer.body?.code) },
  };
}

/** What the journey must see on any TEC site, this API included. */
export const EXPECTED_JOURNEY: Omit<Journey, 'listed'> & { listed: Omit<Journey['listed'], 'pages'> } = {
  namespaces: ['tribe/events/v1', 'wp/v2'],
  me: { status: 200, signedIn: true },
  created: [201, 201, 201, 201, 201],
  listed: { titles: ['Journey * 1', 'Journey * 2', 'Journey * 3', 'Journey * 4', 'Journey * 5'], total: 5, nextForm: ['site', 'wp-json'] },
  renamed: { status: 200, title: 'Renamed *' },
  tag: { status: 201, name: 'Outdoor *', slug: 'outdoor-*', seenInList: true, countAfterLink: 5 },
  trashed: { status: 200, anonymousTotal: 4 },
  anonymousWrite: { status: 401, code: 'rest_forbidden' },
  badPassword: { status: 401, code: 'incorrect_password' },
};
