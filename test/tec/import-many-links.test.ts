// An event with more categories and tags than this API once took per field (10 each), made on the
// live TEC and moved here with the import: it comes over whole, and reads the same categories and
// tags, in the order TEC gives them, with the same counts.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { importMine, liveSite, now, type LiveSiteClient } from './import-calendar.js';

const run = `links${Date.now().toString(36)}`;

/** Names out of alphabetical order and ids sent out of creation order: the order shown is TEC's own. */
const NAMES = ['Kappa', 'Alpha', 'Omega', 'Delta', 'Zeta', 'Beta', 'Mu', 'Gamma', 'Xi', 'Eta', 'Iota', 'Lambda'];

describe('an event with 11 categories and 12 tags, imported from the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-links' });
  let site: LiveSiteClient;
  let event = 0;
  const mine = new Set<string>();

  beforeAll(async () => {
    site = await liveSite();
    const start = now();
    const categories: number[] = [];
    for (const name of NAMES.slice(0, 11)) categories.push((await site.make('/tribe/events/v1/categories', { name: `${name} ${run}` })).id);
    const tags: number[] = [];
    for (const name of NAMES) tags.push((await site.make('/tribe/events/v1/tags', { name: `${name} tag ${run}` })).id);
    const made = await site.make('/tribe/events/v1/events', {
      title: `Many links ${run}`,
      status: 'publish',
      start_date: '2031-05-04 18:00:00',
      end_date: '2031-05-04 20:00:00',
      categories: [...categories].reverse(),
      tags: [...tags].sort((a, b) => (a % 3) - (b % 3) || b - a),
    });
    event = made.id;
    for (const id of categories) mine.add(`category#${id}`);
    for (const id of tags) mine.add(`tag#${id}`);
    mine.add(`event#${event}`);
    const summary = await importMine(site, start, await gw.token('editor', 'site-import'), mine);
    expect(summary.kinds.event.written).toContain(event);
    expect(summary.unlinked.filter((u) => u.event === event)).toEqual([]);
  }, 180_000);

  const terms = (list: { id: number; name: string; slug: string; count: number }[]) => list.map((t) => ({ id: t.id, name: t.name, slug: t.slug, count: t.count }));

  it('reads the same categories and tags, in the same order and with the same counts', async () => {
    const theirs = await site.tec('GET', `/tribe/events/v1/events/${event}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.categories).toHaveLength(11);
    expect(theirs.body.tags).toHaveLength(12);
    const ours = await gw.api('GET', `/events/${event}`, { token: 'editor' });
    expect(ours.status, ours.text).toBe(200);
    expect(terms(ours.body.categories)).toEqual(terms(theirs.body.categories));
    expect(terms(ours.body.tags)).toEqual(terms(theirs.body.tags));
    for (const t of ours.body.categories) expect(t.count).toBe(1);
  });

  it('lists the event under each of its terms, as the site does', async () => {
    const theirs = await site.tec('GET', `/tribe/events/v1/events/${event}`);
    for (const [param, list] of [
      ['categories', theirs.body.categories],
      ['tags', theirs.body.tags],
    ] as const) {
      const last = list[list.length - 1].id;
      const ours = await gw.api('GET', '/events', { query: { [param]: last, start_date: '2031-05-01', end_date: '2031-05-31' }, token: 'editor' });
      expect(ours.body.events.map((e: { id: number }) => e.id)).toEqual([event]);
    }
  });
});
