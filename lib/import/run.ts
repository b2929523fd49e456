// One import run from a live site: read it (lib/import/live-source.ts), write what changed
// (lib/import/writer.ts), remember when the run started for the next one's default --since.
import { waitAll } from '#lib/runtime/settle.js';
import { isFixedOffset, isValidTimezone, offsetAt } from '#lib/domain/time/dates.js';
import { LiveSite, SiteError, type LiveOptions } from './live-source.js';
import { wxrRecords } from './wxr-source.js';
import type { WxrEntry } from './wxr-types.js';
import { KINDS, recordRefusal, type RecordKind, type SiteRecord } from './records.js';
import { lastRun, rememberRun } from '#lib/store/import-log.js';
import { writeRecords, type ImportSummary, type WriteOptions } from './writer.js';

export interface LiveImport extends Omit<WriteOptions, 'progress'> {
  site: Omit<LiveOptions, 'since'>;
  /** Only posts modified after this time; undefined: since the last run; null: everything. */
  since?: string | null;
  deleteMissing?: boolean;
  progress?: WriteOptions['progress'];
  log?: (line: string) => void;
  /**
   * Told the site's time zone before anything is written: publication dates and events without a
   * zone of their own are read in it, so the writes must run with it as SITE_TIMEZONE.
   */
  onTimezone?: (zone: string) => void;
}

/**
 * The zone to import with: the site's, unless SITE_TIMEZONE names another (a fixed offset equal to
 * the site's agrees: `UTC` is `UTC+0`).
 */
export function agreeingZone(configured: string | undefined, site: string): string {
  if (!configured || configured === site) return site;
  const fixed = (z: string) => (isValidTimezone(z) && isFixedOffset(z) ? offsetAt(z, 0) : undefined);
  if (fixed(configured) !== undefined && fixed(configured) === fixed(site)) return site;
  throw new SiteError(`SITE_TIMEZONE is ${configured}, but the site's time zone is ${site}: leave SITE_TIMEZONE unset (the import takes the site's) or set it to ${site}.`);
}

export async function importLive(opts: LiveImport): Promise<ImportSummary & { since?: string; timezone: string }> {
  const startedAt = new Date().toISOString();
  const since = opts.since === null ? undefined : (opts.since ?? (await lastRun()));
  const site = new LiveSite({ ...opts.site, since });
  await site.check();
  opts.onTimezone?.(site.timezone);
  opts.log?.(since ? `Reading ${site.base}: posts modified since ${since}…` : `Reading ${site.base}…`);
  const [users, terms, venues, organizers, events] = await waitAll([site.users(), site.terms(), site.posts('venue'), site.posts('organizer'), site.posts('event')]);
  const records: SiteRecord[] = [...users, ...terms, ...venues, ...organizers, ...events];
  // Which records the site still has: the lists read whole, or (after --since) every id.
  const present: Partial<Record<RecordKind, Set<number>>> = {
    category: new Set(terms.filter((t) => t.kind === 'category').map((t) => t.id)),
    tag: new Set(terms.filter((t) => t.kind === 'tag').map((t) => t.id)),
  };
  for (const [kind, read] of [
    ['venue', venues],
    ['organizer', organizers],
    ['event', events],
  ] as const)
    present[kind] = new Set(since ? await site.ids(kind) : read.map((r) => r.id));
  const summary = await writeRecords(
    records,
    { ...opts, stillThere: (kind, id) => (kind === 'category' || kind === 'tag' ? Promise.resolve(false) : site.has(kind, id)) },
    present,
    opts.deleteMissing,
  );
  if (!opts.dryRun && !summary.failed.length) await rememberRun(startedAt, site.base);
  return { ...summary, timezone: site.timezone, ...(since ? { since } : {}) };
}

/** The run's summary: a line per kind, then each failure with its id and reason. */
export function formatSummary(s: ImportSummary, dryRun = false): string {
  const verb = dryRun ? 'would be ' : '';
  const lines = KINDS.map((k) => {
    const t = s.kinds[k];
    const gone = t.missing.length
      ? `, ${t.missing.length} gone from the site${t.deleted ? ` (${t.deleted} deleted here)` : ' (kept here: --delete-missing deletes them)'}: ${t.missing.slice(0, 20).join(', ')}`
      : '';
    const failed = s.failed.filter((f) => f.kind === k).length;
    return `${(k === 'category' ? 'categories' : `${k}s`).padEnd(11)} ${t.created} ${verb}created, ${t.updated} ${verb}updated, ${t.unchanged} unchanged, ${failed} failed${gone}`;
  });
  if (s.authorless.count)
    lines.push(
      `${s.authorless.count} posts had no author on the site: written as ${s.authorless.author ? `user ${s.authorless.author}` : "the import's own user"} (--author LOGIN names another).`,
    );
  if (s.series.length) {
    const list = (xs: typeof s.series, say: (x: (typeof s.series)[number]) => string) =>
      `${xs
        .slice(0, 20)
        .map((x) => `event ${x.event} ${say(x)}`)
        .join('; ')}${xs.length > 20 ? '; …' : ''}`;
    const series = s.series.filter((x) => x.lines && !x.changed);
    const alone = s.series.filter((x) => !x.lines);
    const changed = s.series.filter((x) => x.changed);
    const events = series.reduce((n, x) => n + (x.events ?? 0), 0);
    lines.push(
      [
        `${s.series.length} events are series on the site (Events Calendar Pro)`,
        series.length
          ? `${series.length} ${verb}imported as series${dryRun ? '' : ` (${events} events in all)`}: ${list(series, (x) => `${x.lines!.join(' ')}${x.siteIds ? ` (${x.siteIds} occurrences keep the ids of the site's posts for them)` : ''}`)}`
          : '',
        alone.length ? `${alone.length} ${verb}imported as their own dates only, as RFC 5545 cannot say their rules: ${list(alone, (x) => `(${x.alone ?? ''})`)}` : '',
        changed.length
          ? `${changed.length} ${verb}given the rules the site changed them to (the events of dates that stay keep their ids, the others go to the trash)${dryRun ? '' : ` (${changed.reduce((n, x) => n + (x.events ?? 0), 0)} events in all)`}: ${list(changed, (x) => x.lines!.join(' '))}`
          : '',
      ]
        .filter(Boolean)
        .join('. '),
    );
  }
  for (const [room, what] of [
    [false, 'links to records neither the source nor this calendar holds'],
    [true, 'links past those one write of an event holds'],
  ] as const) {
    const left = s.unlinked.filter((u) => !!u.room === room);
    if (!left.length) continue;
    const shown = left.slice(0, 20).map((u) => `event ${u.event} → ${u.kind} ${typeof u.ref === 'string' ? JSON.stringify(u.ref) : u.ref}`);
    lines.push(`${left.length} ${what}, left out: ${shown.join(', ')}${left.length > 20 ? ', …' : ''}`);
  }
  if (s.clearedUrls.length) {
    const shown = s.clearedUrls.slice(0, 20).map((c) => `${c.kind} ${c.id} ${c.field} ${JSON.stringify(c.value)}`);
    lines.push(
      `${s.clearedUrls.length} URLs no WordPress save keeps (esc_url_raw empties their scheme) or no URL holds, written empty: ${shown.join(', ')}${s.clearedUrls.length > 20 ? ', …' : ''}`,
    );
  }
  for (const f of s.failed) lines.push(`failed: ${f.kind} ${f.id}: ${f.reason}`);
  return lines.join('\n');
}

/**
 * One import run from an export file's entries (its streaming reader's output). A kind the file
 * holds none of (an export of events alone holds no venues) is not judged gone from the site.
 */
export async function importEntries(entries: AsyncIterable<WxrEntry>, opts: Omit<LiveImport, 'site' | 'since'>): Promise<ImportSummary> {
  return importRecords(await wxrRecords(entries), opts);
}

/** One import run from an export file's records (lib/import/wxr-source.ts). */
export async function importRecords(records: SiteRecord[], opts: Omit<LiveImport, 'site' | 'since'>): Promise<ImportSummary> {
  const present: Partial<Record<RecordKind, Set<number>>> = {};
  for (const r of records) if (r.id > 0 && !recordRefusal(r)) (present[r.kind] ??= new Set()).add(r.id);
  return writeRecords(records, opts, present, opts.deleteMissing);
}
