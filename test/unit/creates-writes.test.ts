// Creating many events of the same links in one transaction (lib/logic/event-writes.ts,
// createsWrites, which a series' occurrences take): every item a create of its own writes for each
// event, and the items they share (count buckets, term and venue counts) once, moved by the sum.
import { describe, expect, it } from 'vitest';
import { createsWrites, eventWrites } from '#lib/logic/event-writes.js';
import type { EventItem } from '#lib/store/items.js';
import type { TransactItem } from '#lib/store/transactions.js';

const event = (id: number, day: string, o: Partial<EventItem> = {}): EventItem =>
  ({
    pk: `POST#${id}`,
    sk: 'POST',
    id,
    kind: 'event',
    lang: 'en',
    status: 'publish',
    slug: `s-${id}`,
    author: 1,
    title: 't',
    version: 1,
    start: `${day} 10:00:00`,
    end: `${day} 12:00:00`,
    utcStart: `${day} 10:00:00`,
    utcEnd: `${day} 12:00:00`,
    timezone: 'UTC',
    featured: false,
    venues: [7],
    organizers: [],
    categories: [20],
    tags: [21],
    parent: 0,
    seriesId: 1,
    ...o,
  }) as EventItem;

const keyOf = (t: TransactItem) => {
  const op = (t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck)!;
  const key = ('Item' in op ? op.Item : op.Key) as { pk: string; sk: string };
  return `${key.pk}|${key.sk}`;
};

/** An update's counted values by name (`:n`, `:d30`, `:d`), leaving out its constants (`:z` zero, `:one` the version's step). */
const counted = (t: TransactItem | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(t?.Update?.ExpressionAttributeValues ?? {}).filter(([name, v]) => typeof v === 'number' && name !== ':z' && name !== ':one')) as Record<
    string,
    number
  >;

describe('creating events of the same links at once', () => {
  const events = [event(101, '2031-03-30'), event(102, '2031-03-31'), event(103, '2031-04-01')];
  const together = createsWrites(events, 'table', { bound: 7200 }).items;
  const alone = events.map((e) => eventWrites(undefined, e, 'table', { bound: 7200 }).items);

  it("writes each event's own items as its create would, and every shared item once", () => {
    const keys = together.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    const own = alone.map((items) => items.filter((t) => t.Put));
    for (const items of own) for (const t of items) expect(together).toContainEqual(t);
    expect(new Set(keys)).toEqual(new Set(alone.flat().map(keyOf)));
    // Fewer items than the creates' sum: the counts they share are one item each.
    expect(together.length).toBeLessThan(alone.flat().length);
  });

  it('moves every shared count by the sum of what each create moves it by', () => {
    const updated = new Set(together.filter((t) => t.Update).map(keyOf));
    // Two months' buckets of the list, the venue, the category, the tag and not-featured; the term counts and the venue's.
    expect(updated.size).toBe(13);
    for (const key of updated) {
      const summed: Record<string, number> = {};
      for (const t of alone.flat().filter((x) => keyOf(x) === key)) for (const [name, v] of Object.entries(counted(t))) summed[name] = (summed[name] ?? 0) + v;
      expect(counted(together.find((t) => keyOf(t) === key)), key).toEqual(summed);
    }
    expect(counted(together.find((t) => keyOf(t) === 'TERM#20|TERM'))).toEqual({ ':d': 3 });
    expect(counted(together.find((t) => keyOf(t) === 'POST#7|POST'))).toEqual({ ':d': 3 });
  });

  it('refuses events whose links or status differ', () => {
    expect(() => createsWrites([events[0]!, event(104, '2031-04-02', { tags: [] })], 'table')).toThrow(/share/);
    expect(() => createsWrites([events[0]!, event(104, '2031-04-02', { status: 'draft' })], 'table')).toThrow(/share/);
  });
});
