// Venues and organizers are de-duplicated as the live TEC does it (test/corpus/tec/README.md): a create
// reuses a record whose title matches (case, accents and trailing spaces ignored) and, only when
// the request sends a description, whose description matches too; any author's, any status but
// trash, as long as the caller may read it; 201 either way; within the request's language. The
// fields sent are saved onto the match when the caller may edit it (TEC's save_meta on the match).
import { describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';

const gw = useGateway();
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;
const create = async (path: string, body: Record<string, unknown>, token: string = 'editor', lang?: string) => {
  const res = await gw.api('POST', path, { token, body, lang });
  expect(res.status, res.text).toBe(201);
  return res.body;
};

describe('venue and organizer de-duplication', () => {
  it('reuses a venue whose title matches, ignoring case, accents and trailing spaces, and keeps its title', async () => {
    const first = await create('/venues', { venue: 'Virtual', city: 'Online' });
    for (const [i, venue] of ['Virtual', 'virtual', 'VIRTUAL  ', 'Vírtual'].entries()) {
      const again = await create('/venues', { venue, city: `Elsewhere ${i}` });
      expect(again.id, venue).toBe(first.id);
      expect(again.venue).toBe('Virtual');
      expect(again.city).toBe(`Elsewhere ${i}`);
    }
    expect((await create('/venues', { venue: ' Virtual' })).id).not.toBe(first.id);
  });

  it('compares descriptions only when the request sends one', async () => {
    const hall = await create('/organizers', { organizer: 'Hall Org', description: 'First' });
    expect((await create('/organizers', { organizer: 'Hall Org' })).id).toBe(hall.id);
    expect((await create('/organizers', { organizer: 'hall org', description: 'first' })).id).toBe(hall.id);
    const other = await create('/organizers', { organizer: 'Hall Org', description: 'Second' });
    expect(other.id).not.toBe(hall.id);
  });

  it('matches any author and status but the trash, and only in the same language', async () => {
    const draft = await create('/venues', { venue: 'Editors Draft Hall', status: 'draft' });
    const contributor = await gw.token('contributor', 'dedupe-contributor');
    const published = await create('/venues', { venue: 'Editors Public Hall' });
    expect((await create('/venues', { venue: 'Editors Public Hall' }, contributor)).id).toBe(published.id);
    const own = await create('/venues', { venue: 'Contributors Draft Hall' }, contributor);
    expect(own.status).toBe('draft');
    expect((await create('/venues', { venue: 'Contributors Draft Hall' }, contributor)).id).toBe(own.id);
    expect((await create('/venues', { venue: 'Contributors Draft Hall' })).id).toBe(own.id);
    expect((await create('/venues', { venue: 'Editors Draft Hall' })).id).toBe(draft.id);
    expect((await create('/venues', { venue: 'Editors Draft Hall' }, 'editor', 'lt')).id).not.toBe(draft.id);
    const trashed = await create('/venues', { venue: 'Trashed Hall' });
    await gw.api('DELETE', `/venues/${trashed.id}`, { token: 'editor' });
    expect((await create('/venues', { venue: 'Trashed Hall' })).id).not.toBe(trashed.id);
  });

  it("never matches a record the caller may not read: another user's draft stays theirs", async () => {
    const owner = await gw.token('contributor', 'dedupe-owner');
    const other = await gw.token('contributor', 'dedupe-other');
    const draft = await create('/venues', { venue: 'Secret Hall', city: 'Hidden' }, owner);
    const organizer = await create('/organizers', { organizer: 'Secret Org' }, owner);
    expect(draft.status).toBe('draft');
    const mine = await create('/venues', { venue: 'Secret Hall' }, other);
    expect(mine.id).not.toBe(draft.id);
    expect(mine.city).not.toBe('Hidden');
    const event = await create(
      '/events',
      { title: 'Secret', start_date: at(3), end_date: at(3), venue: { venue: 'secret hall' }, organizer: [{ organizer: 'Secret Org' }] },
      other,
    );
    expect(event.venue.id).not.toBe(draft.id);
    expect(event.organizer.map((o: { id: number }) => o.id)).not.toContain(organizer.id);
    // Editors may read the draft, so they reuse it.
    expect((await create('/venues', { venue: 'Secret Hall' })).id).toBe(draft.id);
    expect((await create('/organizers', { organizer: 'Secret Org' })).id).toBe(organizer.id);
  });

  it('saves the fields sent onto the match, as TEC does, and leaves the others as they were', async () => {
    const hall = await create('/venues', { venue: 'Moved Hall', address: '1 Old Road', city: 'Oldtown', phone: '111', show_map: false });
    const moved = await create('/venues', { venue: 'Moved Hall', address: '2 New Road', zip: '999' });
    expect(moved.id).toBe(hall.id);
    expect(moved).toMatchObject({ address: '2 New Road', zip: '999', city: 'Oldtown', phone: '111', show_map: false, venue: 'Moved Hall', slug: hall.slug });
    expect(moved.modified >= hall.modified).toBe(true);
    const read = await gw.api('GET', `/venues/${hall.id}`);
    expect(read.body).toMatchObject({ address: '2 New Road', zip: '999', city: 'Oldtown' });
    // A request that changes nothing writes nothing: the record keeps its ETag.
    const etag = read.headers.get('etag');
    await create('/venues', { venue: 'Moved Hall', address: '2 New Road' });
    expect((await gw.api('GET', `/venues/${hall.id}`)).headers.get('etag')).toBe(etag);
    const org = await create('/organizers', { organizer: 'Moved Org', phone: '1', email: 'old@example.com' });
    const again = await create('/organizers', { organizer: 'moved org', email: 'new@example.com' });
    expect(again).toMatchObject({ id: org.id, email: 'new@example.com', phone: '1', organizer: 'Moved Org' });
  });

  it('uses the match unchanged when the caller may read but not edit it', async () => {
    const hall = await create('/venues', { venue: 'Editors Own Hall', city: 'Kept' });
    const contributor = await gw.token('contributor', 'dedupe-reader');
    const reused = await create('/venues', { venue: 'Editors Own Hall', city: 'Overwritten' }, contributor);
    expect(reused.id).toBe(hall.id);
    expect(reused.city).toBe('Kept');
    const event = await create('/events', { title: 'Read only match', start_date: at(4), end_date: at(4), venue: { venue: 'Editors Own Hall', city: 'Overwritten' } }, contributor);
    expect(event.venue).toMatchObject({ id: hall.id, city: 'Kept' });
    expect((await gw.api('GET', `/venues/${hall.id}`)).body.city).toBe('Kept');
  });

  it('saves an inline venue onto its match in the event write: the event, the venue and its other events show the new address, and its counts hold', async () => {
    const first = await create('/events', { title: 'League game 1', start_date: at(5), end_date: at(5), venue: { venue: 'League Arena', address: '1 Old Street' } });
    const arena = first.venue.id as number;
    const second = await create('/events', { title: 'League game 2', start_date: at(6), end_date: at(6), venue: { venue: 'League Arena', address: '9 New Street' } });
    expect(second.venue).toMatchObject({ id: arena, address: '9 New Street' });
    expect((await gw.api('GET', `/venues/${arena}`)).body.address).toBe('9 New Street');
    expect((await gw.api('GET', `/events/${first.id}`)).body.venue.address).toBe('9 New Street');
    // Both events count: the venue has events, and its list of events holds both.
    const withEvents = await gw.api('GET', '/venues', { query: { has_events: 'true', search: 'League Arena' } });
    expect(withEvents.body.venues.map((v: { id: number }) => v.id)).toEqual([arena]);
    const listed = await gw.api('GET', '/events', { query: { venue: arena } });
    expect(listed.body.total).toBe(2);
    // An edit of the venue keeps its count of linked events.
    expect((await gw.api('PATCH', `/venues/${arena}`, { token: 'editor', body: { city: 'Leagueville' } })).status).toBe(200);
    const after = await gw.api('GET', '/venues', { query: { has_events: 'true', search: 'League Arena' } });
    expect(after.body.venues.map((v: { id: number }) => v.id)).toEqual([arena]);
  });

  it('finds a renamed record by its new title, not its old one', async () => {
    const renamed = await create('/venues', { venue: 'Old Name Hall' });
    expect((await gw.api('PATCH', `/venues/${renamed.id}`, { token: 'editor', body: { venue: 'New Name Hall' } })).status).toBe(200);
    expect((await create('/venues', { venue: 'New Name Hall' })).id).toBe(renamed.id);
    expect((await create('/venues', { venue: 'Old Name Hall' })).id).not.toBe(renamed.id);
  });

  it('applies to inline venues and organizers: an importer that runs three times gets one venue', async () => {
    const ids = new Set<number>();
    for (let run = 0; run < 3; run++) {
      const event = await create('/events', {
        title: `Import ${run}`,
        start_date: at(3),
        end_date: at(3),
        venue: { venue: 'Imported Place' },
        organizer: [{ organizer: 'Twin' }, { organizer: 'twin' }],
      });
      ids.add(event.venue.id);
      // Two inline organizers of one name in one request are one.
      expect(event.organizer).toHaveLength(1);
    }
    expect(ids.size).toBe(1);
    const list = await gw.api('GET', '/venues', { query: { search: 'Imported Place' } });
    expect(list.body.venues).toHaveLength(1);
  });
});
