// Reading the events of a series back through the list, page by page.
import { expect } from 'vitest';

/** The wait for the consumer to write a series: every occurrence is a change each trigger takes, a minute or more on a loaded machine. */
export const DRAIN_MS = 150_000;
/** A series test's own time, the waits for the consumer included. */
export const TEST_MS = 200_000;

/** Every date a series here can have: the list's window for reading a whole series. */
export const EVERY_DATE = { start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50 };

/** Every event of the series of `first` in a list read with `page(n)`, oldest first. */
export async function seriesEvents(first: number, page: (n: number) => Promise<{ status: number; body: unknown }>): Promise<any[]> {
  const out: any[] = [];
  for (let n = 1; ; n++) {
    const res = await page(n);
    if (res.status === 404) break;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as { events: any[]; total_pages: number };
    out.push(...body.events.filter((e) => e.series_id === first));
    if (n >= body.total_pages) break;
  }
  return out;
}
