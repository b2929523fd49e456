// An event's JSON-LD dates and offer against what the live TEC 6.17.2 answered for the same
// records (its single-event json_ld; the rows below are its answers, copied).
import { beforeAll, describe, expect, it } from 'vitest';
import { eventRecord } from '#lib/docs/record-samples.js';
import { parseCostInput } from '#lib/domain/cost.js';
import { presentEvent } from '#lib/present/present.js';
import { resetConfig } from '#lib/runtime/config.js';
import type { EventItem } from '#lib/store/items.js';

const linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
const jsonLd = (fields: Partial<EventItem>) => presentEvent(eventRecord({ id: 7, ...fields }), linked, true).json_ld as Record<string, any>;

beforeAll(() => {
  process.env.SITE_TIMEZONE = 'UTC';
  process.env.SITE_URL = 'http://127.0.0.1:8080';
  resetConfig();
});

describe('JSON-LD dates', () => {
  it('gives a wall time the zone passes twice the offset of the UTC time stored, as TEC does', () => {
    // TEC: start 02:30, end 03:30 on 2027-10-31 in Vilnius, stored as 23:30 and 01:30 UTC (+03:00, then +02:00).
    const vilnius = { timezone: 'Europe/Vilnius', start: '2027-10-31 02:30:00', end: '2027-10-31 03:30:00', utcStart: '2027-10-30 23:30:00' };
    expect(jsonLd({ ...vilnius, utcEnd: '2027-10-31 01:30:00' })).toMatchObject({ startDate: '2027-10-31T02:30:00+03:00', endDate: '2027-10-31T03:30:00+02:00' });
    // The first of the two instants, where that is the one stored.
    expect(jsonLd({ ...vilnius, utcEnd: '2027-10-31 00:30:00' }).endDate).toBe('2027-10-31T03:30:00+03:00');
    // New York's 01:30 on 2027-11-07, both instants.
    const ny = { timezone: 'America/New_York', start: '2027-11-07 01:30:00', end: '2027-11-07 01:30:00' };
    expect(jsonLd({ ...ny, utcStart: '2027-11-07 05:30:00', utcEnd: '2027-11-07 06:30:00' })).toMatchObject({
      startDate: '2027-11-07T01:30:00-04:00',
      endDate: '2027-11-07T01:30:00-05:00',
    });
  });

  it('gives other times their zone, fixed offsets included', () => {
    expect(
      jsonLd({ timezone: 'Europe/Vilnius', start: '2027-07-01 19:00:00', end: '2027-07-01 22:00:00', utcStart: '2027-07-01 16:00:00', utcEnd: '2027-07-01 19:00:00' }),
    ).toMatchObject({
      startDate: '2027-07-01T19:00:00+03:00',
      endDate: '2027-07-01T22:00:00+03:00',
    });
    expect(
      jsonLd({ timezone: 'UTC+5:45', start: '2027-01-15 10:00:00', end: '2027-01-15 11:00:00', utcStart: '2027-01-15 04:15:00', utcEnd: '2027-01-15 05:15:00' }),
    ).toMatchObject({
      startDate: '2027-01-15T10:00:00+05:45',
      endDate: '2027-01-15T11:00:00+05:45',
    });
    expect(
      jsonLd({ timezone: 'America/St_Johns', start: '2027-01-15 10:00:00', end: '2027-01-15 10:00:00', utcStart: '2027-01-15 13:30:00', utcEnd: '2027-01-15 13:30:00' }).startDate,
    ).toBe('2027-01-15T10:00:00-03:30');
    // The site's zone when the event has none.
    expect(jsonLd({ start: '2027-01-15 19:00:00', end: '2027-01-15 22:00:00' })).toMatchObject({ startDate: '2027-01-15T19:00:00+00:00', endDate: '2027-01-15T22:00:00+00:00' });
  });
});

describe('JSON-LD offer', () => {
  const price = (cost: unknown) => jsonLd({ cost: parseCostInput(cost) }).offers?.price;

  // [cost sent, TEC's offers.price]: rows where this API's `cost` is TEC's.
  const TEC: [unknown, string | undefined][] = [
    ['Free', '0'],
    ['free', '0'],
    [' FREE ', '0'],
    ['free\t', '0'],
    ['$0', '0'],
    ['0.00', '0'],
    ['Free!', 'Free!'],
    ['FREE entry', 'FREE entry'],
    ['Donation', 'Donation'],
    ['Gratis', 'Gratis'],
    ['25', '25'],
    ['$25', '25'],
    ['25$', '25'],
    ['5 €', '5'],
    ['1500 ₽', '1500'],
    ['₽1500', '1500'],
    ['£5', '5'],
    ['5.5', '5.5'],
    ['25.00', '25.00'],
    ['  $ 7  ', '7'],
    ['5 - 10', '5 – 10'],
    ['5–10', '5 – 10'],
    ['10-20', '10 – 20'],
    ['$10 - $20', '10 – 20'],
    ['0 - 10', 'Free – 10'],
    ['', undefined],
    [null, undefined],
  ];
  it.each(TEC)('cost %j has the price TEC gives it, %j', (cost, expected) => {
    expect(price(cost)).toBe(expected);
  });

  it('is the whole offer TEC writes', () => {
    expect(jsonLd({ cost: parseCostInput('Free'), date: '2026-11-27 03:00:00' }).offers).toEqual({
      '@type': 'Offer',
      price: '0',
      priceCurrency: 'USD',
      url: 'http://127.0.0.1:8080/event/event-7/',
      category: 'primary',
      availability: 'inStock',
      validFrom: '2026-11-27T00:00:00+00:00',
    });
    expect(jsonLd({}).offers).toBeUndefined();
  });

  it("follows this API's cost where TEC's cost loses part of it", () => {
    // TEC: `cost` "$6.50 – $8.50" and price "6.50 – 8.50"; `cost` "$30" and price "30"; "$.50" and ".50".
    expect(price('€6.50 - €8.50')).toBe('6.50 – 8.50');
    expect(price('10, 20, 30')).toBe('10 – 30');
    expect(price('$1,000.50')).toBe('1000.50');
  });
});
