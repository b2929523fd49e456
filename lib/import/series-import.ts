// Events Calendar Pro's series brought as series (lib/logic/series-rules.ts): each first event is
// written with its rules in RFC 5545 (./pro-recurrence/series-lines.ts), and its other occurrences
// are written as the stream consumer writes them (lib/logic/series.ts), here by the import itself
// when no consumer runs. Pro 3 to 5 also made each occurrence a post of its own, a child of the
// first event with the same rules copied: such a post is no series of its own, and the occurrence
// it stands for keeps its id (reserved under the occurrence's create key before the series is
// written). A child on no date of its series (moved on its own) is written as an event of its own.
import { config } from '#lib/runtime/config.js';
import { pool } from '#lib/runtime/pool.js';
import { continueSeries } from '#lib/logic/series.js';
import { occurrenceKey, seriesPending } from '#lib/logic/series-rules.js';
import { reserveCreateId } from '#lib/store/create-ids.js';
import { continueAfter } from '#lib/store/ids.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type EventItem } from '#lib/store/items.js';
import type { ProRecurrence } from './pro-recurrence/rfc5545.js';
import { seriesLines } from './pro-recurrence/series-lines.js';
import { settleRulesOf } from '#lib/logic/series-rules-edit.js';
import { recordRefusal, type SitePost, type SiteRecord } from './records.js';

/**
 * An event that is an Events Calendar Pro series on the site, and how it came: `lines`, a series
 * here with those rules; `alone`, as the one event the source holds (its own dates), with why;
 * `changed`, a series here already whose rules the site changed since: it takes them as an edit
 * by scope all gives them (lib/logic/series-rules-edit.ts).
 */
export interface ImportedSeries {
  event: number;
  series: ProRecurrence;
  lines?: string[];
  alone?: string;
  changed?: true;
  /** Occurrences that keep the id of the site's post for them (Pro 3 to 5). */
  siteIds?: number;
  /** The series' events here once the import wrote its occurrences (the first one included). */
  events?: number;
}

export interface SeriesPlan {
  series: ImportedSeries[];
  /** The series of a first event. */
  of: Map<number, ImportedSeries>;
  /** The site's posts of occurrences that the series writes, by id: the occurrence's series and UTC start. */
  occurrencePosts: Map<number, { first: number; utc: string }>;
}

const isEvent = (r: SiteRecord): r is SitePost & { kind: 'event' } => r.kind === 'event' && !recordRefusal(r);

/** The series of the records, followed as this API follows a create's rules, with the occurrences' own posts. */
export function planSeries(records: readonly SiteRecord[], now = new Date()): SeriesPlan {
  const events = new Map(records.filter(isEvent).map((e) => [e.id, e]));
  const childOf = (e: SitePost) => (e.parent !== undefined && events.has(e.parent) ? e.parent : undefined);
  const plan: SeriesPlan = { series: [], of: new Map(), occurrencePosts: new Map() };
  const starts = new Map<number, Map<string, string>>();
  for (const e of events.values()) {
    if (!e.series || childOf(e) !== undefined) continue;
    const x: ImportedSeries = { event: e.id, series: e.series };
    const f = e.fields;
    const event = { start: String(f.start_date), end: String(f.end_date), timezone: String(f.timezone || config().siteTimezone), allDay: f.all_day === true };
    const read = seriesLines(e.series, event, { now, horizonMonths: config().seriesHorizonMonths, maxOccurrences: config().seriesMaxOccurrences });
    if ('unsupported' in read) x.alone = read.unsupported;
    else {
      x.lines = read.lines;
      starts.set(e.id, new Map(read.occurrences.slice(1).map((o) => [o.start, o.utc])));
    }
    plan.series.push(x);
    plan.of.set(e.id, x);
  }
  const taken = new Set<string>();
  for (const e of events.values()) {
    const first = childOf(e);
    const utc = first === undefined ? undefined : starts.get(first)?.get(String(e.fields.start_date));
    // One post per occurrence: a second one on the same date is an event of its own.
    if (first === undefined || utc === undefined || taken.has(`${first}|${utc}`)) continue;
    taken.add(`${first}|${utc}`);
    plan.occurrencePosts.set(e.id, { first, utc });
    const x = plan.of.get(first)!;
    x.siteIds = (x.siteIds ?? 0) + 1;
  }
  return plan;
}

/**
 * Before the series' first events are written: the occurrences they make take ids after every post
 * of the site (a consumer may write them while the import runs), or the id of the site's own post
 * for the occurrence, reserved here.
 */
export async function prepareOccurrences(records: readonly SiteRecord[], plan: SeriesPlan): Promise<void> {
  if (!plan.series.length) return;
  const posts = records.filter((r) => (r.kind === 'venue' || r.kind === 'organizer' || r.kind === 'event') && !recordRefusal(r));
  await continueAfter(
    'post',
    posts.reduce((high, r) => Math.max(high, r.id), 0),
  );
  await pool([...plan.occurrencePosts], 8, ([id, { first, utc }]) => reserveCreateId(occurrenceKey(first, utc), id));
}

/**
 * What an event's write sends of its Pro series: its rules when it is made here, or when the event
 * here is no series yet; else the update goes to every event of the series (`scope=all`), and
 * `rules` are the site's when it changed them, sent after it in a request of their own (new rules
 * come without dates).
 */
export function seriesPart(here: EventItem | undefined, series: ImportedSeries | undefined): { recurrence?: string[]; scope?: 'all'; rules?: string[] } {
  const isSeries = here?.seriesId !== undefined && here.seriesId === here.id;
  const lines = series?.lines;
  if (series && lines) {
    if (!here || here.seriesId === undefined) return { recurrence: lines };
    if (isSeries && JSON.stringify(here.recurrence) !== JSON.stringify(lines)) {
      series.changed = true;
      return { scope: 'all', rules: lines };
    }
  }
  return isSeries ? { scope: 'all' } : {};
}

/**
 * Writes the occurrences of the series the run made (unless a deployed table's consumer writes
 * them), then counts each series' events here. Failures are answered by first event.
 */
export async function writeOccurrences(
  plan: SeriesPlan,
  opts: { seriesByConsumer?: boolean; concurrency?: number; progress?: (kind: 'series', total: number) => (() => void) | undefined },
): Promise<{ id: number; reason: string }[]> {
  const made = plan.series.filter((x) => x.lines);
  const tick = made.length ? opts.progress?.('series', made.length) : undefined;
  const failed: { id: number; reason: string }[] = [];
  await pool(made, opts.concurrency ?? 4, async (x) => {
    try {
      // Each call writes a chunk and records it; a call that records nothing more ends the loop.
      for (let done = -1; !opts.seriesByConsumer; ) {
        const first = ofKind(await getItem(keys.post(x.event)), 'event');
        if (!seriesPending(first) || first.series.made === done) break;
        done = first.series.made;
        await continueSeries(x.event);
      }
      const first = ofKind(await getItem(keys.post(x.event)), 'event');
      // New rules: what their request left of its events is settled here, as the consumer would.
      if (x.changed && !opts.seriesByConsumer && first?.series?.rules) await settleRulesOf(first, false);
      if (first?.series) x.events = Math.min(first.series.made, first.series.total);
    } catch (err) {
      failed.push({ id: x.event, reason: `the series' occurrences: ${(err as Error).message}` });
    }
    tick?.();
  });
  return failed;
}
