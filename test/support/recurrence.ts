// Helpers for the recurrence tests: a series that must parse, and an expansion that must succeed.
import type { Expanded, Occurrence } from '#lib/domain/recurrence/expand.js';
import { parseRecurrence, type Series } from '#lib/domain/recurrence/parse.js';

/** The series of `lines`, failing the test with the parser's message when they do not parse. */
export function seriesOf(lines: string[], start: string, tz: string, allDay = false): Series {
  const parsed = parseRecurrence(lines, start, tz, allDay);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.series;
}

/** The occurrences of an expansion, failing the test with its message when it failed. */
export function occurrencesOf(expanded: Expanded): Occurrence[] {
  if (!expanded.ok) throw new Error(expanded.error.message);
  return expanded.occurrences;
}

/** The error message of an expansion that must fail. */
export function errorOf(expanded: Expanded): { line: number; message: string } {
  if (expanded.ok) throw new Error(`expected an error, got ${expanded.occurrences.length} occurrences`);
  return expanded.error;
}
