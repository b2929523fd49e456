// tec/v1's events list in an order other than by start reads every event of the list to cut its
// page: events heavier than one calendar feed may hold (ICAL_MAX_BYTES, small here) are still all
// ordered, since their records are sorted and not answered.
import { describe, expect, it } from 'vitest';
import { TEC_V1_ACKNOWLEDGEMENT } from '#lib/contract/operations.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';

process.env.ICAL_MAX_BYTES = '20000';
const gw = useGateway({ tablePrefix: 'tecv1order' });
const tv = (route: string) => gw.api('GET', gw.abs(`/en/tec/v1${route}`), { headers: { 'X-TEC-EEA': TEC_V1_ACKNOWLEDGEMENT } });

describe('tec/v1: an ordered list of heavy events', () => {
  it('orders every event of the list, whatever their records weigh', async () => {
    const venue = await createAsEditor(gw, '/venues', { venue: 'Heavy hall' });
    const words = 'lorem ipsum dolor sit amet '.repeat(400);
    const made = [];
    for (const [i, title] of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo'].entries()) {
      made.push(
        await createAsEditor(gw, '/events', { title, description: words, start_date: `2032-01-0${i + 1} 10:00:00`, end_date: `2032-01-0${i + 1} 11:00:00`, venue: venue.id }),
      );
    }
    // Five records of over 10 KB each: twice what a feed of this site may hold.
    const byTitle = await tv(`/events?venue=${venue.id}&orderby=title`);
    expect(byTitle.status, byTitle.text).toBe(200);
    expect(byTitle.body.map((e: { title: { rendered: string } }) => e.title.rendered)).toEqual(['alpha', 'bravo', 'Charlie', 'Delta', 'Echo']);
    expect(byTitle.headers.get('x-wp-total')).toBe('5');
    const newest = await tv(`/events?venue=${venue.id}&order=DESC&per_page=2&page=2`);
    expect(newest.body.map((e: { id: number }) => e.id)).toEqual([made[2]!.id, made[1]!.id]);
  });
});
