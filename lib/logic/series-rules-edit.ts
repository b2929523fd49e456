// New rules for a series: an edit by scope all that sends `recurrence`. The rules are followed from
// the series' first event, whose start stays their DTSTART. The first event records them
// (`series.rules`, lib/store/series-progress.ts, changeRules); then every event of the series whose
// date they still give takes them and keeps its id (and its own changes), every other goes to the
// trash, and the dates new to the series are written as occurrences by the stream consumer, as a
// create's are (lib/logic/series.ts finds each date that has an event, so that none is written
// twice). An event is known by the date the rules gave it (`occurrence`), so one moved from its
// date stays when that date does. An end recorded before (a delete by scope following) or a split
// stands: the new rules end before it, and the events from it on are left to that write. The
// request settles what its time allows, the consumer all of them for the change that recorded the
// rules (lib/stream/series-trigger.ts).
import { busy, ConflictError, invalidParam } from '#lib/contract/errors.js';
import { utcToWall } from '#lib/domain/time/dates.js';
import { batchGet, getItem, keyOf } from '#lib/store/reads.js';
import { withRetry } from '#lib/store/retry.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
import { seriesMembers } from '#lib/store/partitions.js';
import { changeRules } from '#lib/store/series-progress.js';
import { modifiedNow } from './common.js';
import { occurrenceStart, rulesBefore, rulesOf, storedOccurrences, zoneOf } from './series-rules.js';
import { settleWith, writeMembers, type Fate } from './series-scope.js';

/** Parameters that are each event's own, which a request that sends new rules may not change with them. */
const OWN = ['start_date', 'end_date', 'timezone', 'all_day'] as const;

type FirstEvent = EventItem & Required<Pick<EventItem, 'recurrence' | 'series'>>;

export interface RulesPlan {
  first: FirstEvent;
  lines: string[];
  total: number;
  asOf: string;
}

/** Where an end or a split recorded on the series cuts it (a UTC wall time), if one does. */
const cutOf = (first: EventItem): string | undefined => [first.series?.stop?.from, first.series?.split?.at].filter((c) => c !== undefined).sort()[0];

/**
 * Checks new rules sent with scope all to `addressed`, an event of a series: a 400 naming
 * `recurrence` when they cannot be followed from the first event's start (or come with the
 * dates, or the whole series was deleted), a 503 while the series' occurrences are still being
 * written. Undefined when they are the rules it has.
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
  const cut = first && cutOf(first);
  if (!first?.series || !first.recurrence || cut === '') {
    throw invalidParam('recurrence', `recurrence: the series of event ${addressed.id} was deleted, so it takes no new rules.`);
  }
  // The occurrences are still being written (a create a moment ago): new rules wait for them.
  if (first.series.made < first.series.total) throw busy();
  const rules = rulesOf(first, lines, now);
  const asOf = now.toISOString();
  const plan = { first: first as FirstEvent, lines: rules.lines, total: rules.occurrences.length, asOf };
  if (cut !== undefined) Object.assign(plan, rulesBefore({ ...plan.first, recurrence: plan.lines, series: { ...first.series, total: plan.total, asOf } }, cut));
  return JSON.stringify(plan.lines) === JSON.stringify(first.recurrence) ? undefined : plan;
}

/** Records the planned rules on the series' first event, then settles its events (what the request's time allows). */
export async function changeSeriesRules(plan: RulesPlan, addressed: number, now: Date): Promise<void> {
  const first = await withRetry(async () => {
    const read = ofKind(await getItem(keys.post(plan.first.id)), 'event');
    if (!read?.series || !read.recurrence) return undefined;
    // Another write gave the series these very rules since (a split's request and its consumer): its settle stands.
    if (read.series.rules && JSON.stringify(read.recurrence) === JSON.stringify(plan.lines)) return undefined;
    if (read.series.made < read.series.total) throw busy();
    const modified = modifiedNow(now);
    // The version makes two changes within one second two marks, each settled; the writer looks
    // for events of the new dates only up to the last date that has one, or that the rules before
    // gave (an event of a split still moving into this series has one of those).
    const last = storedOccurrences(read).at(-1);
    const through = [...(await existingStarts(read)), ...(last ? [occurrenceStart(read, last)] : [])].sort().at(-1);
    const rules = { at: modified.modified_utc, version: read.version + 1, ...(through === undefined ? {} : { through }) };
    if (
      !(await changeRules(read.id, { version: read.version, made: read.series.made }, { total: plan.total, recurrence: plan.lines, asOf: plan.asOf, rules, modified }, undefined))
    ) {
      throw new ConflictError(`Series of event ${read.id} changed while giving it new rules`);
    }
    return { ...read, ...modified, recurrence: plan.lines, series: { ...read.series, total: plan.total, made: 1, asOf: plan.asOf, rules }, version: read.version + 1 };
  });
  if (!first) return;
  // The addressed event first, so that the answer shows it as the rules leave it.
  if (addressed !== first.id) await settleWith(addressed, first, fateUnder(first), now);
  await settleRulesOf(first, true, addressed);
}

/**
 * What the rules of `first` do to one of its events: kept when they give its date (restored when
 * earlier rules had dropped it; one trashed otherwise stays there), left to the end or split that
 * cuts the series when it is from the cut on (or in another series by now), else dropped.
 */
function fateUnder(first: EventItem): (old: EventItem) => Fate {
  const given = new Set(storedOccurrences(first).map((o) => occurrenceStart(first, o)));
  const cut = cutOf(first);
  return (old) => {
    if (old.seriesId !== first.id || (cut !== undefined && old.utcStart >= cut)) return 'leave';
    if (!given.has(old.occurrence ?? old.start)) return 'dropped';
    return old.status === 'trash' && old.trashedByRules ? 'restore' : 'keep';
  };
}

/**
 * Brings every event of the series of `first` in line with its rules (fateUnder). A `request`
 * leaves what it has no time for to the stream consumer (and `skip`, the event it settled
 * itself); answers whether all were.
 */
export async function settleRulesOf(first: EventItem, request: boolean, skip?: number): Promise<boolean> {
  const fate = fateUnder(first);
  const members = (await seriesMembers(first.id)).filter((m) => m.eventId !== first.id && m.eventId !== skip);
  // Changed at the rules' time, the time of an edit sent with them: the consumer's writes of that
  // edit (applyEdit) pass over an event changed after it.
  const at = first.series?.rules?.at;
  const now = at ? new Date(`${at.replace(' ', 'T')}Z`) : new Date();
  return writeMembers(
    members,
    async (id) => {
      await settleWith(id, first, fate, now);
    },
    `Events of the series of ${first.id} with new rules`,
    request,
  );
}

/**
 * The starts of the occurrences of the series of `first` that have an event, or had one that was
 * deleted (it is not written again): a series whose rules changed writes only the other dates.
 */
export async function existingStarts(first: EventItem): Promise<Set<string>> {
  const members = await seriesMembers(first.id, true);
  // An item written before members kept their date: its event's, or (deleted) its start in the series' zone.
  const unknown = members.filter((m) => m.occurrence === undefined && !m.gone);
  const events = unknown.length
    ? await batchGet(
        unknown.map((m) => keys.post(m.eventId)),
        true,
      )
    : undefined;
  return new Set(members.map((m) => m.occurrence ?? ofKind(events?.get(keyOf(keys.post(m.eventId))), 'event')?.occurrence ?? utcToWall(m.utcStart, zoneOf(first))));
}
