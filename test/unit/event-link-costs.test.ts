// What each link of an event costs in its write's transaction (lib/logic/event-writes.ts), and how
// many links a write therefore holds (lib/logic/event-room.ts): the figures docs/tec-behaviour.md §1.13 states.
import { describe, expect, it } from 'vitest';
import type { ApiError } from '#lib/contract/errors.js';
import { requireRoom } from '#lib/logic/event-room.js';
import { eventWrites } from '#lib/logic/event-writes.js';
import type { EventItem } from '#lib/store/items.js';

const range = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + i);
const event = (o: Partial<EventItem> = {}): EventItem =>
  ({
    pk: 'POST#1',
    sk: 'POST',
    id: 1,
    kind: 'event',
    lang: 'en',
    status: 'publish',
    slug: 's',
    author: 1,
    title: 't',
    version: 1,
    start: '2031-03-10 10:00:00',
    end: '2031-03-10 12:00:00',
    utcStart: '2031-03-10 10:00:00',
    utcEnd: '2031-03-10 12:00:00',
    timezone: 'UTC',
    featured: false,
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
    parent: 0,
    ...o,
  }) as EventItem;
const linked = (k: number, o: Partial<EventItem> = {}, from = 100) => event({ categories: range(k, from), ...o });
const items = (old: EventItem | undefined, next: EventItem | undefined) => eventWrites(old, next, 'table', { bound: 7200 }).items.length;
const trashed = { status: 'trash', slug: 's__trashed' } as const;
const later = { start: '2031-04-10 10:00:00', end: '2031-04-10 12:00:00', utcStart: '2031-04-10 10:00:00', utcEnd: '2031-04-10 12:00:00', version: 2 };

/** Each write's own items and items per link, from the writes of 10 and 11 links. */
const WRITES: [string, (k: number) => number, { own: number; perLink: number }][] = [
  ['create, published', (k) => items(undefined, linked(k)), { own: 6, perLink: 3 }],
  ['create, draft', (k) => items(undefined, linked(k, { status: 'draft' })), { own: 6, perLink: 3 }],
  ['create, hidden from listings', (k) => items(undefined, linked(k, { hidden: true })), { own: 4, perLink: 2 }],
  ['update that adds links', (k) => items(linked(0), linked(k, { version: 2 })), { own: 3, perLink: 3 }],
  ['update that removes links', (k) => items(linked(k), linked(0, { version: 2 })), { own: 3, perLink: 3 }],
  ['update that replaces every link', (k) => items(linked(k), linked(k, { version: 2 }, 500)), { own: 3, perLink: 6 }],
  ['update that keeps the links and adds one', (k) => items(linked(k), event({ categories: [...range(k, 100), 999], version: 2 })), { own: 6, perLink: 1 }],
  ['publish a draft', (k) => items(linked(k, { status: 'draft' }), linked(k, { version: 2 })), { own: 7, perLink: 4 }],
  ['move to another month', (k) => items(linked(k), linked(k, later)), { own: 7, perLink: 3 }],
  ['trash', (k) => items(linked(k), linked(k, { ...trashed, version: 2 })), { own: 6, perLink: 3 }],
  ['restore', (k) => items(linked(k, trashed), linked(k, { version: 2 })), { own: 6, perLink: 3 }],
  ['delete', (k) => items(linked(k), undefined), { own: 6, perLink: 3 }],
  ['delete from the trash', (k) => items(linked(k, trashed), undefined), { own: 3, perLink: 1 }],
];

/** The links a refused write says fit. */
function linksThatFit(old: EventItem | undefined, next: EventItem): number | undefined {
  try {
    requireRoom(old, next, () => ({ bound: 7200 }), 'table');
    return undefined;
  } catch (err) {
    const details = (err as ApiError).body().data.details as Record<string, { data: { fit: number } }>;
    return Object.values(details)[0]!.data.fit;
  }
}

describe('the items each link costs in an event write', () => {
  it.each(WRITES)('%s', (_, write, cost) => {
    const perLink = write(11) - write(10);
    expect({ own: write(10) - 10 * perLink, perLink }).toEqual(cost);
  });

  it('a published create holds 31 links of any mix; an update that replaces every link 16; a draft of 31 publishes with 15', () => {
    const mix = (n: number) => event({ venues: [1], organizers: range(10, 10), categories: range(n - 11 - 5, 100), tags: range(5, 200) });
    expect(linksThatFit(undefined, mix(31))).toBeUndefined();
    expect(linksThatFit(undefined, mix(32))).toBe(31);
    expect(linksThatFit(linked(16), linked(16, { version: 2 }, 500))).toBeUndefined();
    expect(linksThatFit(linked(16), linked(17, { version: 2 }, 500))).toBe(16);
    expect(linksThatFit(linked(31, { status: 'draft' }), linked(31, { version: 2 }))).toBe(15);
    expect(linksThatFit(linked(23, { status: 'draft' }), linked(23, { version: 2 }))).toBeUndefined();
  });

  it('an update is taken only if a create of what it stores fits, so that it can be trashed and deleted', () => {
    // Showing a hidden event with 40 links costs 2 a link (link item, bucket): it would fit alone.
    expect(items(linked(40, { hidden: true }), linked(40, { version: 2 }))).toBeLessThanOrEqual(100);
    expect(linksThatFit(linked(40, { hidden: true }), linked(40, { version: 2 }))).toBe(31);
  });
});
