// TEC's tec/v1 event orders (lib/domain/event-order.ts), as the live TEC 6.17.2 listed one venue's
// events: titles under the database's collation, ties by id ascending in either direction, except
// by start, where descending reverses the ties too.
import { describe, expect, it } from 'vitest';
import { eventOrder, type Ordered } from '#lib/domain/event-order.js';

// id, title, start (UTC), publish date: as made on the live TEC, one after another.
const made: [number, string, string, string][] = [
  [676, 'Bravo', '2027-05-03 10:00:00', '2026-12-04 04:22:32'],
  [677, 'alpha', '2027-05-01 10:00:00', '2026-12-04 04:22:33'],
  [678, 'Charlie', '2027-05-02 10:00:00', '2026-12-04 04:22:35'],
  [679, 'Alpha', '2027-05-04 10:00:00', '2026-12-04 04:22:36'],
  [680, 'ärger', '2027-05-05 10:00:00', '2026-12-04 04:22:37'],
  [681, 'Delta', '2027-05-09 10:00:00', '2026-12-04 04:22:47'],
  [682, 'delta', '2027-05-08 10:00:00', '2026-12-04 04:22:48'],
  [683, 'DELTA', '2027-05-10 10:00:00', '2026-12-04 04:22:48'],
  [684, 'Echo', '2027-05-20 10:00:00', '2026-12-04 04:22:58'],
  [685, 'Foxtrot', '2027-05-20 10:00:00', '2026-12-04 04:22:59'],
];
const events: Ordered[] = made.map(([id, title, utcStart, date]) => ({ id, title, utcStart, date_utc: date, modified_utc: date }));
const ids = (orderby: string, order: string) =>
  [...events]
    .reverse()
    .sort(eventOrder(orderby, order))
    .map((e) => e.id);

describe('tec/v1 event orders', () => {
  it('orders by start, and reverses it whole', () => {
    expect(ids('event_date', 'ASC')).toEqual([677, 678, 676, 679, 680, 682, 681, 683, 684, 685]);
    expect(ids('event_date', 'DESC')).toEqual([685, 684, 683, 681, 682, 680, 679, 676, 678, 677]);
  });

  it('orders by title under the collation, equal titles by id in either direction', () => {
    expect(ids('title', 'ASC')).toEqual([677, 679, 680, 676, 678, 681, 682, 683, 684, 685]);
    expect(ids('title', 'DESC')).toEqual([685, 684, 681, 682, 683, 678, 676, 680, 677, 679]);
  });

  it('orders by publish date, equal dates by id; menu_order by id alone', () => {
    expect(ids('date', 'DESC')).toEqual([685, 684, 682, 683, 681, 680, 679, 678, 677, 676]);
    expect(ids('modified', 'ASC')).toEqual([676, 677, 678, 679, 680, 681, 682, 683, 684, 685]);
    expect(ids('menu_order', 'DESC')).toEqual([676, 677, 678, 679, 680, 681, 682, 683, 684, 685]);
  });
});
