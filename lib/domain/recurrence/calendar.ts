// Calendar arithmetic on day numbers (days since 1970-01-01, negative before), which the rule
// expansion does for every candidate day: plain integer work, no Date or zone involved. A wall time
// is carried as "naive ms", the epoch milliseconds it would have in UTC, as lib/domain/time/dates.ts
// does.
import type { Wall } from '#lib/domain/time/dates.js';

export const MS_DAY = 86_400_000;

export interface Civil {
  year: number;
  month: number;
  day: number;
}

/** Day number of a proleptic Gregorian date (eras of 400 years, March-based years). */
export function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The date of a day number. */
export function civil(days: number): Civil {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export const weekday = (days: number): number => (((days + 4) % 7) + 7) % 7;

export const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const monthLength = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1]!);

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 'YYYY-MM-DD HH:MM:SS' of naive ms. */
export function formatNaive(naive: number): Wall {
  const days = Math.floor(naive / MS_DAY);
  const { year, month, day } = civil(days);
  const secs = Math.floor((naive - days * MS_DAY) / 1000);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;
}

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Naive ms of a valid wall time, undefined for anything else. */
export function parseNaive(wall: unknown): number | undefined {
  const m = typeof wall === 'string' ? WALL_RE.exec(wall) : null;
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > monthLength(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  return dayNumber(y, mo, d) * MS_DAY + ((h * 60 + mi) * 60 + s) * 1000;
}

/** Naive ms of the first instant of year 10000: wall times cannot reach it. */
export const NAIVE_END = dayNumber(10_000, 1, 1) * MS_DAY;
