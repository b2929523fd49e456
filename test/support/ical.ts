// Reading calendar files back with Mozilla's ical.js, a maintained parser calendar clients use:
// what a feed means to a subscriber, and the RFC 5545 line rules it must keep.
import ICAL from 'ical.js';
import { expect } from 'vitest';

export interface ReadEvent {
  uid: string;
  summary: string;
  description: string;
  location: string | null;
  geo: [number, number] | null;
  categories: string[];
  url: string | null;
  organizer: { cn: string | null; value: string } | null;
  attach: { type: string | null; value: string } | null;
  allDay: boolean;
  /** Epoch seconds, as the parser reads them (through the file's own VTIMEZONE for a TZID). */
  start: number;
  end: number;
  /** DATE values, for all-day events: YYYY-MM-DD. */
  startDate: string;
  endDate: string;
  tzid: string | null;
  created: string;
  lastModified: string;
  dtstamp: string;
}

export interface ReadCalendar {
  props: Record<string, string>;
  timezones: string[];
  events: ReadEvent[];
}

/** Every line ends with CRLF and has at most 75 octets; a continuation never splits a character. */
export function expectRfcLines(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) {
    expect(line).not.toMatch(/[\r\n]/);
    const bytes = Buffer.from(line, 'utf8');
    expect(bytes.length, line).toBeLessThanOrEqual(75);
    // A split UTF-8 sequence cannot survive a round trip through a string.
    expect(Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)).toBe(true);
  }
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** Parses a calendar with ical.js (which throws on what it cannot read) and reads its events. */
export function readCalendar(source: string): ReadCalendar {
  const root = new ICAL.Component(ICAL.parse(source));
  expect(root.name).toBe('vcalendar');
  const props: Record<string, string> = {};
  for (const p of root.getAllProperties()) props[p.name.toUpperCase()] = text(p.getFirstValue());
  const timezones: string[] = [];
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtz);
    timezones.push(zone.tzid);
    ICAL.TimezoneService.register(zone);
  }
  const events = root.getAllSubcomponents('vevent').map((c): ReadEvent => {
    const e = new ICAL.Event(c);
    const geo = c.getFirstPropertyValue('geo') as unknown as number[] | null;
    const org = c.getFirstProperty('organizer');
    const att = c.getFirstProperty('attach');
    const cats = c.getAllProperties('categories').flatMap((p) => p.getValues().map(String));
    const start = e.startDate;
    const end = e.endDate;
    return {
      uid: e.uid,
      summary: text(e.summary),
      description: text(e.description),
      location: e.location ?? null,
      geo: geo ? [Number(geo[0]), Number(geo[1])] : null,
      categories: cats,
      url: (c.getFirstPropertyValue('url') as string | null) ?? null,
      organizer: org ? { cn: (org.getParameter('cn') as string | undefined) ?? null, value: text(org.getFirstValue()) } : null,
      attach: att ? { type: (att.getParameter('fmttype') as string | undefined) ?? null, value: text(att.getFirstValue()) } : null,
      allDay: start.isDate,
      start: start.toUnixTime(),
      end: end.toUnixTime(),
      startDate: start.isDate ? start.toString() : '',
      endDate: end.isDate ? end.toString() : '',
      tzid: (c.getFirstProperty('dtstart')?.getParameter('tzid') as string | undefined) ?? null,
      created: text(c.getFirstPropertyValue('created')),
      lastModified: text(c.getFirstPropertyValue('last-modified')),
      dtstamp: text(c.getFirstPropertyValue('dtstamp')),
    };
  });
  for (const tzid of timezones) ICAL.TimezoneService.remove(tzid);
  return { props, timezones, events };
}

/** One content line: its name (upper case), its parameters as written, its raw value. */
export interface ContentLine {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** A component's own lines, and its subcomponents. */
export interface RawComponent {
  name: string;
  lines: ContentLine[];
  children: RawComponent[];
}

/** Splits `NAME;P=1;Q="a:b":value` at the first colon outside quotes. */
function contentLine(line: string): ContentLine {
  let quoted = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  const head = line.slice(0, colon);
  const [name, ...params] = head.split(';');
  return {
    name: name!.toUpperCase(),
    params: Object.fromEntries(params.map((p) => [p.slice(0, p.indexOf('=')).toUpperCase(), p.slice(p.indexOf('=') + 1)])),
    value: line.slice(colon + 1),
  };
}

/**
 * The raw structure of a calendar, tolerant of what TEC writes (no final line end, no folding):
 * for comparing property by property, value text as written.
 */
export function rawCalendar(text: string): RawComponent {
  const lines = text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const root: RawComponent = { name: 'ROOT', lines: [], children: [] };
  const stack = [root];
  for (const raw of lines) {
    const line = contentLine(raw);
    if (line.name === 'BEGIN') {
      const child: RawComponent = { name: line.value.toUpperCase(), lines: [], children: [] };
      stack.at(-1)!.children.push(child);
      stack.push(child);
    } else if (line.name === 'END') stack.pop();
    else stack.at(-1)!.lines.push(line);
  }
  return root.children[0]!;
}

/** RFC 5545's TEXT unescaping. */
export const unescapeText = (value: string) => value.replace(/\\([\\;,nN])/g, (_, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));

/** The properties a feed's calendar, events and zones may have: TEC's, and GEO. */
const ALLOWED: Record<string, readonly string[]> = {
  vcalendar: ['version', 'prodid', 'calscale', 'method', 'x-wr-calname', 'x-original-url', 'x-wr-caldesc', 'refresh-interval', 'x-robots-tag', 'x-published-ttl'],
  vevent: ['dtstart', 'dtend', 'dtstamp', 'created', 'last-modified', 'uid', 'summary', 'description', 'url', 'location', 'geo', 'categories', 'attach', 'organizer'],
  vtimezone: ['tzid'],
  standard: ['tzoffsetfrom', 'tzoffsetto', 'tzname', 'dtstart'],
  daylight: ['tzoffsetfrom', 'tzoffsetto', 'tzname', 'dtstart'],
};
const CHILDREN: Record<string, readonly string[]> = { vcalendar: ['vtimezone', 'vevent'], vtimezone: ['standard', 'daylight'] };

/**
 * A feed holds exactly the events given by UID, in that order, and nothing else: no line holds a
 * line break in any form or another control character but tab, ical.js reads every line, and each
 * component has only the properties and components a feed writes, each property once.
 */
export function expectExactFeed(text: string, uids: readonly string[]): ICAL.Component {
  expectRfcLines(text);
  for (const line of text.replace(/\r\n /g, '').slice(0, -2).split('\r\n')) expect(line, JSON.stringify(line)).not.toMatch(/[\x00-\x08\x0A-\x1F\x7F-\x9F\u2028\u2029]/);
  const parsed = ICAL.parse(text);
  // One calendar: ical.js gives a list when the text holds more than one.
  expect(typeof parsed[0]).toBe('string');
  const root = new ICAL.Component(parsed);
  const check = (c: ICAL.Component) => {
    const names = c.getAllProperties().map((p) => p.name);
    for (const name of names) expect(ALLOWED[c.name], `${c.name} ${name}`).toContain(name);
    expect(new Set(names).size, `${c.name}: ${names.join(' ')}`).toBe(names.length);
    for (const child of c.getAllSubcomponents()) {
      expect(CHILDREN[c.name] ?? [], `${c.name} > ${child.name}`).toContain(child.name);
      check(child);
    }
  };
  expect(root.name).toBe('vcalendar');
  check(root);
  expect(root.getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'))).toEqual(uids);
  return root;
}

/** One occurrence of a calendar's events, as a client expands them. */
export interface Expanded {
  uid: string;
  summary: string;
  /** Epoch seconds. */
  start: number;
  end: number;
  /** The DTSTART's DATE for all-day occurrences, else ''. */
  startDate: string;
}

/**
 * Every occurrence a calendar client shows, as ical.js expands the file: a recurring VEVENT's
 * RRULE, RDATE and EXDATE, replaced by the VEVENT of the same UID whose RECURRENCE-ID names it.
 * Occurrences past `until` (epoch seconds) are not followed.
 */
export function expandCalendar(source: string, until = Date.UTC(2200, 0, 1) / 1000): Expanded[] {
  const root = new ICAL.Component(ICAL.parse(source));
  const zones = root.getAllSubcomponents('vtimezone').map((vtz) => new ICAL.Timezone(vtz));
  for (const zone of zones) ICAL.TimezoneService.register(zone);
  try {
    const components = root.getAllSubcomponents('vevent');
    const masters = new Map<string, InstanceType<typeof ICAL.Event>>();
    for (const c of components) if (!c.hasProperty('recurrence-id')) masters.set(String(c.getFirstPropertyValue('uid')), new ICAL.Event(c));
    for (const c of components) {
      if (!c.hasProperty('recurrence-id')) continue;
      const master = masters.get(String(c.getFirstPropertyValue('uid')));
      expect(master, 'a RECURRENCE-ID has its recurring VEVENT').toBeDefined();
      master!.relateException(c);
    }
    const out: Expanded[] = [];
    const push = (uid: string, summary: string, start: InstanceType<typeof ICAL.Time>, end: InstanceType<typeof ICAL.Time>) =>
      out.push({ uid, summary, start: start.toUnixTime(), end: end.toUnixTime(), startDate: start.isDate ? start.toString() : '' });
    for (const [uid, master] of masters) {
      if (!master.isRecurring()) {
        push(uid, String(master.summary ?? ''), master.startDate, master.endDate);
        continue;
      }
      const it = master.iterator();
      for (let next = it.next(); next && next.toUnixTime() <= until; next = it.next()) {
        const d = master.getOccurrenceDetails(next);
        push(uid, String(d.item.summary ?? ''), d.startDate, d.endDate);
      }
    }
    return out.sort((a, b) => a.start - b.start || a.summary.localeCompare(b.summary));
  } finally {
    for (const zone of zones) ICAL.TimezoneService.remove(zone.tzid);
  }
}
