// Wall times of a zone -> instants, as RFC 5545 §3.3.5 reads them, fast enough for thousands of
// occurrences: dates.ts asks Intl for every conversion, so a year that many occurrences fall in
// gets a table of its offset changes (transitions.ts) and is then read without Intl.
import { isFixedOffset, offsetAt } from '#lib/domain/time/dates.js';
import { observances } from '#lib/domain/time/transitions.js';
import { civil, MS_DAY } from './calendar.js';

const MS_MIN = 60_000;
const MS_HOUR = 3_600_000;
// Offsets run from UTC-12 to UTC+14: a wall time is an instant within these bounds of its naive ms.
const EARLIEST = 15 * MS_HOUR;
const LATEST = 13 * MS_HOUR;
// Below this many conversions in a year, asking Intl costs less than building the year's table.
const TABLE_AFTER = 24;

/** A UTC year's offset changes: `offs[i]` (ms east of UTC) is in force from `ats[i]`, `before` until the first. */
interface YearTable {
  ats: number[];
  offs: number[];
  before: number;
}

// Shared by every clock of the zone; bounded by the zones and years asked for.
const tables = new Map<string, YearTable>();
const MAX_TABLES = 2_000;

function buildTable(tz: string, year: number): YearTable {
  const changes = observances(tz, year, year);
  const table: YearTable = { ats: [], offs: [], before: changes[0]!.from * MS_MIN };
  for (const c of changes) {
    if (c.from === c.to) continue; // a year without changes lists its offset alone
    table.ats.push(c.at);
    table.offs.push(c.to * MS_MIN);
  }
  if (tables.size >= MAX_TABLES) tables.clear();
  tables.set(`${tz}|${year}`, table);
  return table;
}

function readTable(table: YearTable, instant: number): number {
  let lo = 0;
  let hi = table.ats.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.ats[mid]! <= instant) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? table.before : table.offs[lo - 1]!;
}

/** One zone's conversions; keep one per expansion, since it counts the years it is asked about. */
export class ZoneClock {
  private readonly fixed: number | undefined;
  private readonly asked = new Map<number, number>();

  constructor(readonly tz: string) {
    this.fixed = isFixedOffset(tz) ? offsetAt(tz, 0) * MS_MIN : undefined;
  }

  /** Milliseconds east of UTC at an instant. */
  offset(instant: number): number {
    if (this.fixed !== undefined) return this.fixed;
    const t = Math.floor(instant / 1000) * 1000;
    const year = civil(Math.floor(t / MS_DAY)).year;
    let table = tables.get(`${this.tz}|${year}`);
    if (!table) {
      const n = (this.asked.get(year) ?? 0) + 1;
      this.asked.set(year, n);
      // Date.UTC, which the tables are built with, reads years below 100 as 19xx.
      if (n < TABLE_AFTER || year < 100) return offsetAt(this.tz, t) * MS_MIN;
      table = buildTable(this.tz, year);
    }
    return readTable(table, t);
  }

  /** The instant of a wall time far from offset changes, or its readings with the offsets before and after one, and whether each holds. */
  private readings(naive: number): { a: number; aHolds: boolean; b: number; bHolds: boolean } | number {
    const early = this.offset(naive - EARLIEST);
    const late = this.offset(naive + LATEST);
    const a = naive - early;
    if (early === late) return a;
    const b = naive - late;
    return { a, aHolds: this.offset(a) === early, b, bHolds: this.offset(b) === late };
  }

  /**
   * The instant of a wall time (naive ms). A time the zone shows twice is the first of them, and
   * one it skips is read with the offset before the change, so it moves forward by the gap (RFC
   * 5545 §3.3.5).
   */
  toInstant(naive: number): number {
    if (this.fixed !== undefined) return naive - this.fixed;
    const r = this.readings(naive);
    if (typeof r === 'number') return r;
    if (r.aHolds && r.bHolds) return Math.min(r.a, r.b);
    return r.bHolds ? r.b : r.a;
  }

  /** Whether the zone shows the wall time twice or never: readers of a TZID form differ on those. */
  unclear(naive: number): boolean {
    if (this.fixed !== undefined) return false;
    const r = this.readings(naive);
    return typeof r !== 'number' && r.aHolds === r.bHolds;
  }

  /** The wall time (naive ms) of an instant. */
  toNaive(instant: number): number {
    return Math.floor(instant / 1000) * 1000 + this.offset(instant);
  }
}
