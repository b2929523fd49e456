// New rules for a series: an edit by scope all that sends `recurrence`. The rules are followed from
// the series' first event, whose start stays their DTSTART. The first event records them
// (`series.rules`, lib/store/series-progress.ts, changeRules); then every event of the series whose
// date they still give takes them and keeps its id (and its own changes), every other goes to the
// trash, and the dates new to the series are written as occurrences by the stream consumer, as a
// create's are (lib/logic/series.ts finds each date that has an event, so that none is written
// twice). An event is known by the date the rules gave it (`occurrence`), so one moved from its
// date stays when that date does. The request settles what its time allows, the consumer all of
// them for the change that recorded the rules (lib/stream/series-trigger.ts).
import { config } from '#lib/runtime/config.js';
import { busy, ConflictError, invalidParam } from '#lib/contract/errors.js';
import { utcToWall } from '#lib/domain/time/dates.js';
import { getItem, queryAll } from '#lib/store/reads.js';
import { withRetry } from '#lib/store/retry.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem, type SeriesMemberItem } from '#lib/store/items.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { changeRules } from '#lib/store/series-progress.js';
import { transact } from '#lib/store/transactions.js';
import { modifiedNow } from './common.js';
import { eventTransaction } from './event-writes.js';
import { occurrenceStart, rulesOf, storedOccurrences, type Rules } from './series-rules.js';
import { trashedEvent, writeMembers } from './series-scope.js';

/** Parameters that are each event's own, which a request that sends new rules may not change with them. */
const OWN = ['start_date', 'end_date', 'timezone', 'all_day'] as const;

type FirstEvent = EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>;

export interface RulesPlan {
  first: FirstEvent;
  rules: Rules;
}

const zoneOf = (e: EventItem): string => e.timezone || config().siteTimezone;

/**
 * Checks new rules sent with scope all to `addressed`, an event of a series: a 400 naming
 * `recurrence` when they cannot be followed from the first event's start (or come with the
 * dates), a 503 while the series' occurrences are still being written. Undefined when they are the
 * rules it has.
 */
export async function planRules(addressed: EventItem, lines: string[] | string, params: Record<string, unknown>, now: Date): Promise<RulesPlan | undefined> {
  const own = OWN.filter((p) => params[p] !== undefined);
  if (own.length) {
    throw invalidParam(
      'recurrence',
      `recurrence: new rules are followed from the series' first event as it is; send ${own.join(', ')} in a request of ${own.length > 1 ? 'their' : 'its'} own.`,
    );
  }
  const first = ofKind(await getItem(keys.post(addressed.seriesId!)), 'event');
  if (!first?.series || !first.recurrence) {
    throw invalidParam('recurrence', `recurrence: the first event of the series of event ${addressed.id} is gone, so the series takes no new rules.`);
  }
  // The occurrences are still being written (a create a moment ago): new rules wait for them.
  if (first.series.made < first.series.total) throw busy();
  const rules = rulesOf(first, lines, now);
  if (JSON.stringify(rules.lines) === JSON.stringify(first.recurrence)) return undefined;
  return { first: first as FirstEvent, rules };
}

/** Records the planned rules on the series' first event, then settles its events (what the request's time allows). */
export async function changeSeriesRules(plan: RulesPlan, addressed: number, now: Date): Promise<void> {
  const first = await withRetry(async () => {
    const read = ofKind(await getItem(keys.post(plan.first.id)), 'event');
    if (!read?.series || !read.recurrence) return undefined;
    if (read.series.made < read.series.total) throw busy();
    const modified = modifiedNow(now);
    const next = { total: plan.rules.occurrences.length, recurrence: plan.rules.lines, asOf: now.toISOString(), rules: { at: modified.modified_utc }, modified };
    if (!(await changeRules(read.id, { version: read.version, made: read.series.made }, next, undefined))) {
      throw new ConflictError(`Series of event ${read.id} changed while giving it new rules`);
    }
    const { stop: _stop, ...series } = read.series;
    return { ...read, ...modified, recurrence: next.recurrence, series: { ...series, total: next.total, made: 1, asOf: next.asOf, rules: next.rules }, version: read.version + 1 };
  });
  if (!first) return;
  // The addressed event first, so that the answer shows it as the rules leave it.
  if (addressed !== first.id) await settleRules(addressed, first, starts(first), now);
  await settleRulesOf(first, true, addressed);
}

/** The starts (EventItem.occurrence) of the occurrences the rules of `first` give. */
const starts = (first: EventItem): Set<string> => new Set(storedOccurrences(first).map((o) => occurrenceStart(first, o)));

/**
 * Brings every event of the series of `first` in line with its rules: an event whose date they
 * give takes them, any other goes to the trash. A `request` leaves what it has no time for to the
 * stream consumer (and `skip`, the event it settled itself); answers whether all were.
 */
export async function settleRulesOf(first: EventItem, request: boolean, skip?: number): Promise<boolean> {
  const given = starts(first);
  const members = (await seriesMembers(first.id)).filter((m) => m.eventId !== first.id && m.eventId !== skip);
  const now = new Date();
  return writeMembers(members, (id) => settleRules(id, first, given, now), `Events of the series of ${first.id} with new rules`, request);
}

/** One event of the series of `first`, with the rules of `first` (which give `given`), or in the trash. Idempotent. */
function settleRules(id: number, first: EventItem, given: Set<string>, now: Date): Promise<void> {
  return withRetry(async () => {
    const old = ofKind(await getItem(keys.post(id)), 'event');
    if (!old || old.seriesId !== first.id) return;
    let next: EventItem;
    if (given.has(old.occurrence ?? old.start)) {
      if (JSON.stringify(old.recurrence) === JSON.stringify(first.recurrence)) return;
      next = { ...old, recurrence: first.recurrence, ...modifiedNow(now), version: old.version + 1 };
    } else if (old.status === 'trash') return;
    else next = trashedEvent(old, now);
    const tx = eventTransaction(old, next, config().tableName);
    await transact(tx.items, (i) => tx.meaning.get(i)?.());
  });
}

/**
 * The starts of the occurrences of the series of `first` that have an event, or had one that was
 * deleted (it is not written again): a series whose rules changed writes only the other dates.
 */
export async function existingStarts(first: EventItem): Promise<Set<string>> {
  const members = await queryAll<Pick<SeriesMemberItem, 'utcStart' | 'occurrence'>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.seriesMember(first.id, 0).pk, ':p': keys.seriesMemberPrefix },
    ProjectionExpression: 'utcStart, occurrence',
    ConsistentRead: true,
  });
  // An item written before members kept their date: the date it starts at, in the series' zone.
  return new Set(members.map((m) => m.occurrence ?? utcToWall(m.utcStart, zoneOf(first))));
}
