// Wall times near every change of 2026-2028 in zones with daylight saving time (among them the
// half-hour shift of Lord Howe, the two hours of Troll, and zones either side of UTC), resolved to
// UTC as PHP 8.2 (and so the live TEC) resolves them: `date_create(wall, zone)` in UTC. The hour a
// zone passes twice and the hour it skips are where rules differ.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wallToUtc } from '#lib/domain/time/dates.js';

const rows = readFileSync(new URL('../corpus/php-wall-times.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => line.split('\t') as [string, string, string]);

describe('wall times resolved as PHP resolves them', () => {
  it('has its rows', () => {
    expect(rows.length).toBeGreaterThan(500);
  });

  it('gives every row the UTC time PHP gives it', () => {
    const wrong = rows.filter(([zone, wall, utc]) => wallToUtc(wall, zone) !== utc).map(([zone, wall, utc]) => `${zone} ${wall}: PHP ${utc}, here ${wallToUtc(wall, zone)}`);
    expect(wrong).toEqual([]);
  });

  it('takes the later instant of a repeated hour east of UTC, the earlier west of it', () => {
    expect(wallToUtc('2027-10-31 03:30:00', 'Europe/Vilnius')).toBe('2027-10-31 01:30:00');
    expect(wallToUtc('2027-10-31 01:30:00', 'Europe/London')).toBe('2027-10-31 01:30:00');
    expect(wallToUtc('2027-11-07 01:30:00', 'America/New_York')).toBe('2027-11-07 05:30:00');
    expect(wallToUtc('2027-03-28 03:30:00', 'Europe/Vilnius')).toBe('2027-03-28 01:30:00');
  });
});
