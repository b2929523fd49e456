// An event's `recurrence` field, as Google Calendar's API takes it: RFC 5545 content lines, each an
// RRULE, RDATE or EXDATE, checked strictly and read into a series whose first occurrence (DTSTART)
// is the event's start in its zone. Input sizes are capped so that hostile input stays cheap.
import { isValidTimezone, type Wall } from '#lib/domain/time/dates.js';
import { parseNaive } from './calendar.js';
import { parseContentLine } from './content-line.js';
import { type Moment, parseMoments } from './moments.js';
import { parseRule, type Rule } from './rule.js';

/** What is wrong, and on which line (its index in the array; -1 for the field as a whole). */
export interface RecurrenceError {
  line: number;
  message: string;
}

export interface Series {
  /** DTSTART: the event's start, a wall time in `tz` (a date for an all-day event). */
  start: Wall;
  tz: string;
  allDay: boolean;
  /** Each RRULE with the index of its line. */
  rules: { line: number; rule: Rule }[];
  rdates: Moment[];
  exdates: Moment[];
}

export type Parsed = { ok: true; series: Series } | { ok: false; error: RecurrenceError };

export const MAX_LINES = 100;
export const MAX_LINE_LENGTH = 1_000;

const failure = (line: number, message: string): Parsed => ({ ok: false, error: { line, message } });

/** Why a line cannot be read at all, before its property is looked at. */
function shapeProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return 'must be a string';
  if (text.length > MAX_LINE_LENGTH) return `is longer than ${MAX_LINE_LENGTH} characters`;
  if (/[\r\n]/.test(text)) return 'contains a line break: give one content line per item';
  if (text.trim() === '') return 'is empty';
  return undefined;
}

function readLine(series: Series, text: string, line: number): string | undefined {
  const parsed = parseContentLine(text.trim());
  if (typeof parsed === 'string') return parsed;
  const { name } = parsed;
  if (name === 'RRULE') {
    if (parsed.params.size) return `RRULE takes no parameters (${[...parsed.params.keys()].join(', ')})`;
    const rule = parseRule(parsed.value, series.allDay);
    if (typeof rule === 'string') return rule;
    series.rules.push({ line, rule });
    return undefined;
  }
  if (name === 'RDATE' || name === 'EXDATE') {
    const moments = parseMoments(parsed, series.tz, series.allDay);
    if (typeof moments === 'string') return moments;
    (name === 'RDATE' ? series.rdates : series.exdates).push(...moments);
    return undefined;
  }
  if (name === 'EXRULE') return 'EXRULE is not supported (RFC 5545 removed it): use EXDATE';
  if (name === 'DTSTART') return "DTSTART is not a recurrence line: the event's start date is the series' first occurrence";
  return `unknown property ${name} (a recurrence line is an RRULE, RDATE or EXDATE)`;
}

/**
 * Reads a `recurrence` field for a series starting at `start` (a wall time in `tz`; a date when
 * `allDay`). Throws RangeError for a malformed start or zone (the caller's own fields).
 */
export function parseRecurrence(lines: unknown, start: Wall, tz: string, allDay = false): Parsed {
  if (parseNaive(start) === undefined) throw new RangeError(`Invalid wall time: ${start}`);
  if (!isValidTimezone(tz)) throw new RangeError(`Unknown timezone: ${tz}`);
  if (!Array.isArray(lines)) return failure(-1, 'recurrence must be an array of RFC 5545 lines (RRULE, RDATE or EXDATE)');
  if (lines.length > MAX_LINES) return failure(MAX_LINES, `recurrence has ${lines.length} lines; at most ${MAX_LINES} are allowed`);
  const series: Series = { start, tz, allDay, rules: [], rdates: [], exdates: [] };
  for (const [i, text] of lines.entries()) {
    const shape = shapeProblem(text);
    if (shape) return failure(i, `recurrence[${i}] ${shape}`);
    const problem = readLine(series, text as string, i);
    if (problem) return failure(i, `recurrence[${i}]: ${problem}`);
  }
  if (!series.rules.length && !series.rdates.length) return failure(-1, 'recurrence needs an RRULE or RDATE line');
  return { ok: true, series };
}
