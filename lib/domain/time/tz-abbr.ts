// Time zone abbreviations as PHP shows them (format('T')), which are the time zone database's:
// EET/EEST, MSK, BST, NST, AEDT, and numeric ones where the database has only a number (+0545,
// -03). Intl knows few of them ('GMT+3' for Vilnius in summer), so they come from each zone's
// POSIX TZ string (lib/domain/time/tz-rules.ts), matched by the zone's offset at that instant.
import { TZ_RULES } from './tz-rules.js';

interface Abbreviations {
  std: { name: string; offset: number };
  dst?: { name: string; offset: number };
}

const NAME = /^(?:<([^>]+)>|([A-Za-z]{3,}))/;
const OFFSET = /^([+-])?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?/;

/** Minutes east of UTC from a POSIX offset (which counts west: `EET-2` is UTC+2). */
function readOffset(text: string): { minutes: number; rest: string } | undefined {
  const m = OFFSET.exec(text);
  if (!m) return undefined;
  const west = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return { minutes: m[1] === '-' ? west : -west, rest: text.slice(m[0].length) };
}

function readName(text: string): { name: string; rest: string } | undefined {
  const m = NAME.exec(text);
  return m ? { name: m[1] ?? m[2]!, rest: text.slice(m[0].length) } : undefined;
}

/** `EET-2EEST,M3.5.0/3,M10.5.0/4` -> EET at +120, EEST at +180 (daylight time is std + 1 h unless given). */
export function parsePosixTz(rule: string): Abbreviations | undefined {
  const std = readName(rule);
  const stdOffset = std && readOffset(std.rest);
  if (!std || !stdOffset) return undefined;
  const out: Abbreviations = { std: { name: std.name, offset: stdOffset.minutes } };
  const dst = readName(stdOffset.rest);
  if (dst) {
    const given = readOffset(dst.rest);
    out.dst = { name: dst.name, offset: given ? given.minutes : stdOffset.minutes + 60 };
  }
  return out;
}

/** PHP's numeric form of an offset without a name: +03, -0330, +0545. */
export function numericAbbr(minutes: number): string {
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = abs % 60 ? String(abs % 60).padStart(2, '0') : '';
  return `${minutes < 0 ? '-' : '+'}${hh}${mm}`;
}

const cache = new Map<string, Abbreviations | null>();

/**
 * The abbreviation of an IANA zone whose offset at the instant is `offsetMinutes`. The POSIX
 * string holds today's rules; an offset it does not name (another era's, or Morocco's Ramadan
 * time) gets PHP's numeric form.
 */
export function zoneAbbreviation(zone: string, offsetMinutes: number): string {
  let abbrs = cache.get(zone);
  if (abbrs === undefined) {
    const rule = TZ_RULES[zone];
    abbrs = (rule && parsePosixTz(rule)) || null;
    // Only zones of the database are cached, so request strings cannot grow the map.
    if (rule) cache.set(zone, abbrs);
  }
  if (abbrs?.dst && abbrs.dst.offset === offsetMinutes) return abbrs.dst.name;
  if (abbrs && abbrs.std.offset === offsetMinutes) return abbrs.std.name;
  return numericAbbr(offsetMinutes);
}
