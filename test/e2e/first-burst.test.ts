// A first burst on a fresh server: creates sent at once through HTTP, each with its own
// Idempotency-Key, with few invocation slots so that most of them wait. Whatever the machine's
// load, every answer is a 201 or a 503 with Retry-After, and the answer says what was written: a
// 201's record is stored once, a 503 `rest_busy` stored nothing, and a 503 `rest_outcome_unknown`
// is settled by sending it again with its key (one record, never two).
process.env.LOCAL_CONCURRENCY = '4';
import { describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';

const api = useGateway({ tablePrefix: 'first-burst', stream: true });
const N = 80;
const MONTH = '2044-03';

/** Titles of the month's events, as anonymous clients list them. */
async function listedTitles(): Promise<string[]> {
  const titles: string[] = [];
  for (let page = 1; ; page++) {
    const res = await api.api('GET', '/events', { query: { start_date: `${MONTH}-01`, end_date: `${MONTH}-28 23:59:59`, per_page: 50, page } });
    if (res.status === 404 && page > 1) return titles;
    expect(res.status).toBe(200);
    titles.push(...(res.body.events as { title: string }[]).map((e) => e.title));
    if (titles.length >= res.body.total) return titles;
  }
}

describe('a first burst of creates on a fresh server', () => {
  it('answers 201 or 503 with Retry-After, and each answer says what was written', async () => {
    const token = await api.token('editor', 'first-burst-editor');
    const create = (i: number) =>
      api.api('POST', '/events', {
        token,
        headers: { 'idempotency-key': `first-burst-${i}` },
        body: {
          title: `First burst ${i}`,
          start_date: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
          end_date: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')} 11:00:00`,
        },
      });
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => create(i)));
    const statuses = answers.map((a) => `${a.status} ${a.body?.code ?? ''}`.trim());
    for (const [i, a] of answers.entries()) {
      expect([201, 503], statuses[i]).toContain(a.status);
      if (a.status === 503) {
        expect(['rest_busy', 'rest_outcome_unknown']).toContain(a.body.code);
        expect(a.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    // Unknown outcomes are settled by their retries (with the same key) before the records are counted.
    for (const [i, a] of answers.entries()) {
      if (a.body?.code !== 'rest_outcome_unknown') continue;
      const again = await create(i);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      answers[i] = again;
    }
    const titles = await listedTitles();
    for (const [i, a] of answers.entries()) {
      const stored = titles.filter((t) => t === `First burst ${i}`).length;
      expect(stored, `${statuses[i]} for create ${i}`).toBe(a.status === 201 ? 1 : 0);
    }
    expect(titles.length).toBe(answers.filter((a) => a.status === 201).length);
  }, 120_000);
});
