// The orders TEC's `tec/v1` event list offers besides its own (by start, ascending), as the live
// TEC applies them: by start descending, its ties by id descending too; by a field of the post, its
// ties by id ascending either way (MariaDB's order of equal rows there); by `menu_order`, which
// every event here has at 0, by id alone. Titles compare under the database's collation.
import { compareTermNames } from './term-order.js';

/** What an order reads of an event. */
export interface Ordered {
  id: number;
  utcStart: string;
  date_utc: string;
  modified_utc: string;
  title: string;
}

const FIELDS: Record<string, (a: Ordered, b: Ordered) => number> = {
  date: (a, b) => a.date_utc.localeCompare(b.date_utc),
  modified: (a, b) => a.modified_utc.localeCompare(b.modified_utc),
  title: (a, b) => compareTermNames(a.title, b.title),
};

/** The comparison of `orderby` (TEC's values) in `order` (`ASC` or `DESC`). */
export function eventOrder(orderby: string, order: string): (a: Ordered, b: Ordered) => number {
  const dir = order === 'DESC' ? -1 : 1;
  if (orderby === 'event_date') return (a, b) => dir * (a.utcStart.localeCompare(b.utcStart) || a.id - b.id);
  const by = FIELDS[orderby];
  return by ? (a, b) => dir * by(a, b) || a.id - b.id : (a, b) => a.id - b.id;
}
