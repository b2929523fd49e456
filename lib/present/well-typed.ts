// Records as the presenters expect them. A manual edit of the table, an import or an older version
// may leave a field of another type (a numeric title, a lone id where a list belongs); one such item
// must not fail every page that shows it. Text fields are shown as text, as WordPress would show
// the value, lists that are not lists as empty (and ids that are not numbers left out of them),
// flags as WordPress's truthy reading of the value, numbers that are not numbers as 0 or absent,
// and a cost or cards of another shape as none. Stored times that do not read as times, and zones
// no clock knows, stay as text: the presenters show what they can of them (a feed leaves such an
// event out). Each malformed revision is logged once.
import { logger } from '#lib/observe/log.js';
import { dateDetails } from '#lib/domain/time/dates.js';

const WALL = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const TEXT = [
  'title',
  'description',
  'excerpt',
  'slug',
  'status',
  'image',
  'website',
  'timezone',
  'timezoneAbbr',
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'email',
  'name',
] as const;
/** Text fields every post has: absent, they are shown as empty. */
const POST_TEXT = ['date', 'date_utc', 'modified', 'modified_utc'] as const;
/** An event's times, text every event has. */
const EVENT_TEXT = ['start', 'end', 'utcStart', 'utcEnd'] as const;
const LISTS = ['venues', 'organizers', 'categories', 'tags'] as const;
const FLAGS = ['allDay', 'showMap', 'showMapLink', 'sticky', 'featured', 'hidden'] as const;
/** Numbers shown as 0 when they are not numbers. */
const NUMBERS = ['author', 'parent', 'count'] as const;
/** Numbers left out when they are not numbers. */
const OPTIONAL_NUMBERS = ['geoLat', 'geoLng', 'rev'] as const;

/** WordPress's reading of a stored flag (tribe_is_truthy): yes, true, on, 1. */
const truthy = (v: unknown) => v === true || v === 1 || (typeof v === 'string' && ['1', 'yes', 'true', 'on'].includes(v.trim().toLowerCase()));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asText = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : '');

function wellTypedCost(v: unknown): boolean {
  return (
    isObject(v) &&
    Array.isArray(v.values) &&
    v.values.every((x) => typeof x === 'string') &&
    ['symbol', 'position', 'code'].every((k) => v[k] === undefined || typeof v[k] === 'string')
  );
}

/** Revisions already logged (bounded: a process may present many). */
const logged = new Set<string>();

function report(item: Record<string, unknown>, fields: string[]): void {
  const at = `${String(item.pk)}|${String(item.sk)}|${String(item.version)}`;
  if (logged.has(at)) return;
  if (logged.size > 1_000) logged.clear();
  logged.add(at);
  logger.warn({ message: 'A stored item has fields of the wrong type; they are shown as their type allows', pk: item.pk, sk: item.sk, fields });
}

/** Cards that are records of a venue or organizer, each checked as a record is; undefined when none is. */
function wellTypedCards(v: unknown): { cards: Record<string, unknown> | undefined; changed: boolean } {
  if (!isObject(v)) return { cards: undefined, changed: true };
  let changed = false;
  let some = false;
  const cards: Record<string, unknown> = {};
  for (const [id, card] of Object.entries(v)) {
    if (!isObject(card) || (card.kind !== 'venue' && card.kind !== 'organizer')) changed = true;
    else {
      some = true;
      changed = (cards[id] = wellTyped(card)) !== card || changed;
    }
  }
  return { cards: some ? cards : undefined, changed };
}

/** The text fields each kind of post has, shown as empty when absent. */
const KIND_TEXT = new Map<unknown, readonly string[]>([
  ['event', [...POST_TEXT, ...EVENT_TEXT]],
  ['venue', POST_TEXT],
  ['organizer', POST_TEXT],
]);

/** The fields found of the wrong type, and their values as shown (undefined: left out). */
type Fixes = Map<string, unknown>;

/** Notes that `field` is shown as `value` (a hot path: every record shown passes here, so no closure is made per call). */
const fix = (fixes: Fixes | undefined, field: string, value: unknown): Fixes => (fixes ?? new Map()).set(field, value);

/**
 * The records this process found well-typed, or made so: a record is checked on its way from the
 * table and again by each presenter that shows it (an event's page, its cards, its feed line).
 * Records are read anew for each request and not changed after, so the set holds no more than the
 * records of the answers under way.
 */
const checked = new WeakSet<object>();

/** `item` itself when every field has its type, else a copy with the wrong ones made right. */
export function wellTyped<T extends object>(item: T): T {
  if (checked.has(item)) return item;
  const made = typed(item);
  checked.add(made);
  return made;
}

function typed<T extends object>(item: T): T {
  const record = item as Record<string, unknown>;
  let fixes: Fixes | undefined;
  for (const field of TEXT) {
    const v = record[field];
    if (v !== undefined && v !== null && typeof v !== 'string') fixes = fix(fixes, field, asText(v));
  }
  for (const field of KIND_TEXT.get(record.kind) ?? []) if (typeof record[field] !== 'string') fixes = fix(fixes, field, asText(record[field]));
  for (const field of LISTS) {
    const v = record[field];
    if (v === undefined) continue;
    if (!Array.isArray(v)) fixes = fix(fixes, field, []);
    else if (!v.every(Number.isInteger)) fixes = fix(fixes, field, v.filter(Number.isInteger));
  }
  for (const field of FLAGS) {
    const v = record[field];
    if (v !== undefined && typeof v !== 'boolean') fixes = fix(fixes, field, truthy(v));
  }
  for (const field of NUMBERS) {
    const v = record[field];
    if (v !== undefined && !Number.isFinite(v)) fixes = fix(fixes, field, 0);
  }
  for (const field of OPTIONAL_NUMBERS) {
    const v = record[field];
    if (v !== undefined && !Number.isFinite(v)) fixes = fix(fixes, field, undefined);
  }
  if (record.cost !== undefined && !wellTypedCost(record.cost)) fixes = fix(fixes, 'cost', undefined);
  if (record.cards !== undefined) {
    const { cards, changed } = wellTypedCards(record.cards);
    if (changed) fixes = fix(fixes, 'cards', cards);
  }
  if (!fixes) return item;
  const fixed: Record<string, unknown> = { ...record };
  for (const [field, value] of fixes) {
    if (value === undefined) delete fixed[field];
    else fixed[field] = value;
  }
  report(record, [...fixes.keys()]);
  return fixed as T;
}

/** The parts of a stored time that reads as one (`YYYY-MM-DD HH:MM:SS`, a real date); null for any other value. */
export function wallDetails(v: unknown): ReturnType<typeof dateDetails> | null {
  if (typeof v !== 'string' || !WALL.test(v)) return null;
  try {
    return dateDetails(v);
  } catch {
    return null;
  }
}

/** A stored time that reads as one (`YYYY-MM-DD HH:MM:SS`, a real date). */
export const readableWall = (v: unknown): v is string => wallDetails(v) !== null;
