// A run after edits on the live site brings exactly what changed: records made by this test are
// imported, then on the site one event and one venue are edited, one event is added, one trashed
// and one deleted; a run with `--since` (then one with the remembered default) writes exactly those,
// reports the deleted one, and `--delete-missing` deletes it here.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportSummary } from '#lib/import/writer.js';
import { useGateway } from '../support/gateway.js';
import { importMine, liveSite, now, type LiveSiteClient } from './import-calendar.js';

const run = `isn${Date.now().toString(36)}`;

describe('importing what changed on the live site since a run', () => {
  const gw = useGateway({ tablePrefix: 'tec-import-since' });
  let site: LiveSiteClient;
  let token = '';
  const ev: Record<'edited' | 'trashed' | 'deleted' | 'kept' | 'later' | 'added' | 'ended', number> = { edited: 0, trashed: 0, deleted: 0, kept: 0, later: 0, added: 0, ended: 0 };
  const ven = { edited: 0, kept: 0 };
  const mine = new Set<string>();
  const event = (title: string) =>
    site.make('/tribe/events/v1/events', { title: `${title} ${run}`, start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00', venue: ven.edited });

  /** The test's own records a run wrote, as `kind#id`, sorted. */
  const writtenOfMine = (s: ImportSummary) =>
    Object.entries(s.kinds)
      .flatMap(([kind, t]) => t.written.map((id) => `${kind}#${id}`))
      .filter((k) => mine.has(k))
      .sort();
  const sorted = (...keys: string[]) => [...keys].sort();
  const importSince = (since: string | undefined, deleteMissing = false) => importMine(site, since, token, mine, { deleteMissing });

  beforeAll(async () => {
    site = await liveSite();
    token = await gw.token('editor', 'site-import');
    const start = now();
    ven.edited = (await site.make('/tribe/events/v1/venues', { venue: `Edited hall ${run}`, city: 'Kaunas' })).id;
    ven.kept = (await site.make('/tribe/events/v1/venues', { venue: `Kept hall ${run}`, city: 'Riga' })).id;
    for (const k of ['edited', 'trashed', 'deleted', 'kept', 'later', 'ended'] as const) ev[k] = (await event(`${k} event`)).id;
    for (const id of Object.values(ven)) mine.add(`venue#${id}`);
    for (const id of Object.values(ev)) if (id) mine.add(`event#${id}`);
    const first = await importSince(start);
    expect(writtenOfMine(first)).toEqual(sorted(...mine));
  }, 120_000);

  it('brings the edits, the new event and the trashed one with --since, and reports the deleted one', async () => {
    const before = now();
    await site.make(`/tribe/events/v1/events/${ev.edited}`, { title: `Edited event, renamed ${run}` });
    await site.make(`/tribe/events/v1/venues/${ven.edited}`, { city: 'Klaipėda' });
    ev.added = (await event('added event')).id;
    mine.add(`event#${ev.added}`);
    expect((await site.tec('DELETE', `/tribe/events/v1/events/${ev.trashed}`)).status).toBe(200);
    expect((await site.tec('DELETE', `/wp/v2/tribe_events/${ev.deleted}?force=true`)).status).toBe(200);
    // An event that has ended: TEC's wp/v2 collection no longer lists it, though the site has it.
    await site.make(`/tribe/events/v1/events/${ev.ended}`, { start_date: '2020-06-01 10:00:00', end_date: '2020-06-01 11:00:00' });
    expect((await site.tec('GET', `/wp/v2/tribe_events?include=${ev.ended}&context=edit`)).body).toEqual([]);

    const summary = await importSince(before);
    expect(writtenOfMine(summary)).toEqual(sorted(`event#${ev.edited}`, `event#${ev.added}`, `event#${ev.trashed}`, `event#${ev.ended}`, `venue#${ven.edited}`));
    expect(summary.kinds.event.missing).not.toContain(ev.ended);
    expect(summary.kinds.event.missing).toContain(ev.deleted);
    expect(summary.kinds.event.deleted).toBe(0);
    const here = async (id: number) => (await gw.api('GET', `/events/${id}`, { token: 'editor' })).body;
    expect(await here(ev.edited)).toMatchObject({ title: `Edited event, renamed ${run}` });
    expect(await here(ev.added)).toMatchObject({ title: `added event ${run}` });
    // Trashed here too: refused as TEC refuses a trashed event.
    expect(await here(ev.trashed)).toMatchObject({ code: 'event-no-longer-available' });
    expect((await gw.api('GET', `/venues/${ven.edited}`, { token: 'editor' })).body).toMatchObject({ city: 'Klaipėda' });
    // Reported, not deleted: still here.
    expect(await here(ev.deleted)).toMatchObject({ id: ev.deleted, status: 'publish' });
  }, 120_000);

  it('brings what changed since the last run by default', async () => {
    await site.make(`/tribe/events/v1/events/${ev.later}`, { title: `Later event, renamed ${run}` });
    const summary = await importSince(undefined);
    expect(summary.since).toBeDefined();
    expect(writtenOfMine(summary)).toEqual([`event#${ev.later}`]);
    expect((await gw.api('GET', `/events/${ev.later}`, { token: 'editor' })).body).toMatchObject({ title: `Later event, renamed ${run}` });
  }, 120_000);

  it('clears here a description and excerpt cleared on the site, which TEC’s routes cannot clear', async () => {
    const before = now();
    await site.make(`/tribe/events/v1/events/${ev.kept}`, { description: '<p>Said</p>', excerpt: 'Short' });
    await site.make(`/tribe/events/v1/venues/${ven.kept}`, { description: '<p>Said</p>' });
    await importSince(before);
    expect((await gw.api('GET', `/events/${ev.kept}`, { token: 'editor' })).body).toMatchObject({ description: '<p>Said</p>', excerpt: '<p>Short</p>' });
    // TEC refuses an empty event text and ignores an empty venue description: only wp/v2 clears them.
    expect((await site.tec('POST', `/tribe/events/v1/events/${ev.kept}`, { description: '', excerpt: '' })).status).toBe(400);
    expect((await site.tec('POST', `/tribe/events/v1/venues/${ven.kept}`, { description: '' })).body).toMatchObject({ description: '<p>Said</p>' });
    // This API's routes alike.
    expect((await gw.api('POST', `/events/${ev.kept}`, { token: 'editor', body: { description: '', excerpt: '' } })).status).toBe(400);
    expect((await gw.api('POST', `/venues/${ven.kept}`, { token: 'editor', body: { description: '' } })).body).toMatchObject({ description: '<p>Said</p>' });
    await site.make(`/wp/v2/tribe_events/${ev.kept}`, { content: '', excerpt: '' });
    await site.make(`/wp/v2/tribe_venue/${ven.kept}`, { content: '' });
    const summary = await importSince(before);
    expect(writtenOfMine(summary)).toEqual(sorted(`event#${ev.kept}`, `venue#${ven.kept}`));
    const [theirs, ours] = [await site.tec('GET', `/tribe/events/v1/events/${ev.kept}`), await gw.api('GET', `/events/${ev.kept}`, { token: 'editor' })];
    expect({ description: ours.body.description, excerpt: ours.body.excerpt }).toEqual({ description: theirs.body.description, excerpt: theirs.body.excerpt });
    expect(ours.body).toMatchObject({ description: '', excerpt: '' });
    const [theirVenue, ourVenue] = [await site.tec('GET', `/tribe/events/v1/venues/${ven.kept}`), await gw.api('GET', `/venues/${ven.kept}`, { token: 'editor' })];
    expect(ourVenue.body.description).toBe(theirVenue.body.description);
    expect(ourVenue.body.description ?? '').toBe('');
  }, 120_000);

  it('deletes here what was deleted there with --delete-missing', async () => {
    const summary = await importSince(undefined, true);
    expect(summary.kinds.event.missing).toContain(ev.deleted);
    expect(summary.kinds.event.deleted).toBeGreaterThanOrEqual(1);
    expect((await gw.api('GET', `/events/${ev.deleted}`, { token: 'editor' })).status).toBe(404);
    expect(summary.kinds.event.missing).not.toContain(ev.ended);
    for (const id of [ev.kept, ev.edited]) expect((await gw.api('GET', `/events/${id}`, { token: 'editor' })).status).toBe(200);
    // The ended event is still on the site: kept, with its past dates.
    expect((await gw.api('GET', `/events/${ev.ended}`, { token: 'editor' })).body).toMatchObject({ id: ev.ended, start_date: '2020-06-01 10:00:00' });
    expect((await gw.api('GET', `/events/${ev.trashed}`, { token: 'editor' })).status).toBe(403);
    // Gone for good: the next run no longer reports it.
    expect((await importSince(undefined)).kinds.event.missing).not.toContain(ev.deleted);
  }, 120_000);
});
