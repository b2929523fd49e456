// Venues and organizers are de-duplicated as the live TEC does it (test/corpus/tec/README.md): a create
// reuses a record whose title matches (case, accents and trailing spaces ignored) and, only when
// the request sends a description, whose description matches too; any author's, any status but
// trash, as long as the caller may read it; 201 either way; within the request's language. The
// match is not overwritten.
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
  it('reuses a venue whose title matches, ignoring case, accents and trailing spaces, without overwriting it', async () => {
    const first = await create('/venues', { venue: 'Virtual', city: 'Online' });
    for (const venue of ['Virtual', 'virtual', 'VIRTUAL  ', 'Vírtual']) {
      const again = await create('/venues', { venue, city: 'Elsewhere' });
      expect(again.id, venue).toBe(first.id);
      expect(again.city).toBe('Online');
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
