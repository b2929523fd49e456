// The shapes Events Calendar Pro stores a series in, read into one: the classic `rules` and
// `exclusions` arrays of `_EventRecurrence` (Pro 4.4 and later, still written by Pro 6), the flat
// array before them (Pro 3.x: `custom-type`, `custom-week-day`, `excluded-dates`, …), and the
// block editor's JSON (`_tribe_blocks_recurrence_rules` / `_exclusions`, Pro 4.5 and later), which
// Pro itself turns into classic rules on save. Nothing is interpreted here beyond that.
import type { PhpValue } from './php-unserialize.js';

/** A classic rule, as plain data: `type`, `end-type`, `end`, `end-count`, `custom` {…}. */
export type Rule = Record<string, unknown>;

export interface Rules {
  rules: Rule[];
  exclusions: Rule[];
}

/** A PHP value as plain data: arrays keyed 0..n-1 become lists, others objects. */
export function plain(v: PhpValue | undefined): unknown {
  if (!(v instanceof Map)) return v;
  const keys = [...v.keys()];
  if (keys.every((k, i) => k === i)) return [...v.values()].map(plain);
  return Object.fromEntries([...v].map(([k, item]) => [String(k), plain(item)]));
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? Object.values(v) : []);
const entries = (v: unknown): Rule[] => list(v).filter(isObject);
const ORDINALS: Record<string, string> = { '1': 'First', '2': 'Second', '3': 'Third', '4': 'Fourth', '5': 'Fifth', '-1': 'Last' };

/** `_EventRecurrence`, read as plain data, in either classic shape. */
export function classicRules(meta: unknown): Rules {
  if (!isObject(meta)) return { rules: [], exclusions: [] };
  if ('rules' in meta || 'exclusions' in meta) return { rules: entries(meta.rules), exclusions: entries(meta.exclusions) };
  if (!meta.type) return { rules: [], exclusions: [] };
  // Pro 3.x kept one rule flat, its custom fields prefixed, and its excluded dates as a list.
  const yearNumber = meta['custom-year-month-number'];
  const rule: Rule = {
    type: meta.type,
    'end-type': meta['end-type'],
    end: meta.end,
    'end-count': meta['end-count'],
    custom: {
      type: meta['custom-type'],
      interval: meta['custom-interval'],
      'same-time': 'yes',
      week: { day: meta['custom-week-day'] },
      month: { number: meta['custom-month-number'], day: meta['custom-month-day'] },
      year: {
        month: meta['custom-year-month'],
        number: yearNumber == null || yearNumber === '' ? undefined : (ORDINALS[String(yearNumber)] ?? yearNumber),
        day: meta['custom-year-month-day'],
      },
    },
  };
  const exclusions = list(meta['excluded-dates']).map((date) => ({ type: 'Custom', custom: { type: 'Date', date: { date } } }));
  return { rules: [rule], exclusions };
}

const BLOCK_TYPES: Record<string, string> = { single: 'Date', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' };
const BLOCK_LIMITS: Record<string, string> = { count: 'After', date: 'On', never: 'Never' };
const DAY_SPANS = ['same_day', 'next_day', 'second_day', 'third_day', 'fourth_day', 'fifth_day', 'sixth_day', 'seventh_day'];

/** One block editor rule as the classic rule Pro saves from it. */
function blockRule(b: Record<string, unknown>): Rule {
  const type = BLOCK_TYPES[String(b.type)] ?? String(b.type ?? '');
  const span = b.multi_day ? DAY_SPANS.indexOf(String(b.multi_day_span)) : 0;
  // The block's day: a day of the month, or with `week` ('first' … 'last') a day of the week.
  const week = b.week == null || b.week === '' ? undefined : String(b.week);
  const nth = b.day == null ? {} : week ? { 'same-day': 'no', number: week[0]!.toUpperCase() + week.slice(1), day: b.day } : { 'same-day': 'no', number: b.day };
  const custom: Rule = {
    type,
    interval: b.between,
    'same-time': 'no',
    'start-time': b.start_time,
    'end-time': b.end_time,
    'end-day': Math.max(span, 0),
    ...(type === 'Date' ? { date: { date: b.start_date } } : {}),
    ...(type === 'Weekly' ? { week: { day: list(b.days) } } : {}),
    ...(type === 'Monthly' ? { month: nth } : {}),
    ...(type === 'Yearly' ? { year: { month: list(b.month), ...nth } } : {}),
  };
  const endType = type === 'Date' ? undefined : (BLOCK_LIMITS[String(b.limit_type)] ?? 'Never');
  return {
    type,
    custom,
    ...(endType ? { 'end-type': endType } : {}),
    ...(endType === 'On' ? { end: b.limit } : {}),
    ...(endType === 'After' ? { 'end-count': b.limit } : {}),
  };
}

/** The block editor's JSON meta; undefined when a text is not JSON. */
export function blockRules(rulesJson: string, exclusionsJson: string | undefined): Rules | undefined {
  const read = (text: string | undefined): Rule[] | undefined => {
    if (text === undefined || text.trim() === '') return [];
    try {
      return entries(JSON.parse(text)).map(blockRule);
    } catch {
      return undefined;
    }
  };
  const rules = read(rulesJson);
  const exclusions = read(exclusionsJson);
  return rules && exclusions ? { rules, exclusions } : undefined;
}
