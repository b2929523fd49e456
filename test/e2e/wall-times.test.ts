// Event times the zone passes twice or skips, end to end, as the live TEC 6.17 saves and shows them:
// a skipped wall time is saved as the time it resolves to, a repeated one is the instant PHP picks,
// and JSON-LD shows each with the offset of the UTC time saved.
import { describe, expect, it } from 'vitest';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'walltimes' });
const keys = (e: Record<string, any>) => [e.start_date, e.end_date, e.utc_start_date, e.utc_end_date, e.json_ld?.startDate, e.json_ld?.endDate];
const read = async (id: number) => (await gw.api('GET', `/events/${id}`)).body;

describe('wall times the zone skips or repeats', () => {
  it('saves a skipped wall time as the one it resolves to (TEC: 03:30 -> 04:30 in Vilnius)', async () => {
    const e = await createAsEditor(gw, '/events', { title: 'Gap', start_date: '2027-03-28 03:30:00', end_date: '2027-03-28 05:00:00', timezone: 'Europe/Vilnius' });
    expect(keys(await read(e.id))).toEqual([
      '2027-03-28 04:30:00',
      '2027-03-28 05:00:00',
      '2027-03-28 01:30:00',
      '2027-03-28 02:00:00',
      '2027-03-28T04:30:00+03:00',
      '2027-03-28T05:00:00+03:00',
    ]);
    const ends = await createAsEditor(gw, '/events', { title: 'Gap end', start_date: '2027-03-28 01:00:00', end_date: '2027-03-28 03:15:00', timezone: 'Europe/Vilnius' });
    expect(keys(ends).slice(0, 4)).toEqual(['2027-03-28 01:00:00', '2027-03-28 04:15:00', '2027-03-27 23:00:00', '2027-03-28 01:15:00']);
    const ny = await createAsEditor(gw, '/events', { title: 'Gap NY', start_date: '2027-03-14 02:30:00', end_date: '2027-03-14 02:45:00', timezone: 'America/New_York' });
    expect(keys(ny).slice(0, 4)).toEqual(['2027-03-14 03:30:00', '2027-03-14 03:45:00', '2027-03-14 07:30:00', '2027-03-14 07:45:00']);
    // An update that moves only the end keeps the start as saved.
    const moved = await gw.api('POST', `/events/${e.id}`, { token: 'editor', body: { end_date: '2027-03-28 06:00:00' } });
    expect(keys(moved.body).slice(0, 2)).toEqual(['2027-03-28 04:30:00', '2027-03-28 06:00:00']);
  });

  it('keeps all-day events whole days', async () => {
    const e = await createAsEditor(gw, '/events', {
      title: 'Gap day',
      start_date: '2027-03-28 03:30:00',
      end_date: '2027-03-28 03:45:00',
      timezone: 'Europe/Vilnius',
      all_day: true,
    });
    expect(keys(e).slice(0, 4)).toEqual(['2027-03-28 00:00:00', '2027-03-28 23:59:59', '2027-03-27 22:00:00', '2027-03-28 20:59:59']);
  });

  it('gives a repeated wall time the instant TEC gives it, and JSON-LD its offset', async () => {
    const e = await createAsEditor(gw, '/events', { title: 'Twice', start_date: '2027-10-31 02:30:00', end_date: '2027-10-31 03:30:00', timezone: 'Europe/Vilnius' });
    expect(keys(await read(e.id))).toEqual([
      '2027-10-31 02:30:00',
      '2027-10-31 03:30:00',
      '2027-10-30 23:30:00',
      '2027-10-31 01:30:00',
      '2027-10-31T02:30:00+03:00',
      '2027-10-31T03:30:00+02:00',
    ]);
    const ny = await createAsEditor(gw, '/events', { title: 'Twice NY', start_date: '2027-11-07 01:15:00', end_date: '2027-11-07 01:45:00', timezone: 'America/New_York' });
    expect(keys(await read(ny.id))).toEqual([
      '2027-11-07 01:15:00',
      '2027-11-07 01:45:00',
      '2027-11-07 05:15:00',
      '2027-11-07 05:45:00',
      '2027-11-07T01:15:00-04:00',
      '2027-11-07T01:45:00-04:00',
    ]);
  });
});
