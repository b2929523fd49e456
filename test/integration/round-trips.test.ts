// Sequential DynamoDB round trips per read: every request gets the same added latency, as on AWS
// where each round trip costs about the same, and the store's tally counts the stages (a request
// started after others finished is one stage later than the latest of them). An event list page,
// unfiltered or filtered by one id, is at most four requests in two stages; the requests of a
// stage run in parallel. A read by id is one request when its terms are kept (anonymous callers).
// A create reads its new id and its slug's guards in one stage.
import type { MiddlewareStack } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacity, db } from '#lib/store/db.js';
import { CREDENTIALS_PREFIX } from '#lib/contract/grants.js';
import { roleToken } from '../support/tokens.js';
import { forgetConfirmedRoles } from '#lib/store/credentials.js';
import { invoke } from '#lib/local/invoke.js';
import { readValidator } from '#lib/store/validators.js';
import { useFreshTable } from '../support/table.js';
import { storedItems } from '../support/stored.js';
import { plain } from '../../bench/trace.js';

/**
 * Requests of the table's change counter (lib/store/validators.ts): a write's bump after it, an
 * event list's Query beside its own reads.
 */
const COUNTER = 1;
/** Other reads take the counter as a warm function read it a moment ago (`measure` reads it first): none. */
const KEPT = 0;

/** Well above DynamoDB Local's own time per request, so that stages do not blur. */
const ROUND_TRIP_MS = 150;

let editorToken: string;
const ids = { venue: 0, organizer: 0, category: 0, tag: 0, event: 0 };
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;

async function measure(path: string, query: Record<string, string | number> = {}, editor = false) {
  await readValidator();
  capacity.reset();
  const res = await invoke('GET', 'en', path, { query, token: editor ? editorToken : undefined });
  const used = capacity.snapshot();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { requests: used.requests, stages: used.stages, commands: used.commands, body: res.body };
}

describe('round trips of a read', () => {
  useFreshTable('round-trips');
  const stack = () => db().middlewareStack as unknown as MiddlewareStack<object, object>;

  beforeAll(async () => {
    editorToken = await roleToken('editor', 'round-trips-editor');
    const make = async (path: string, body: Record<string, unknown>) => {
      const res = await invoke('POST', 'en', path, { body, token: editorToken });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    ids.venue = await make('/venues', { venue: 'Trip Hall' });
    ids.organizer = await make('/organizers', { organizer: 'Trip Organizer' });
    ids.category = await make('/categories', { name: 'Trip Category' });
    ids.tag = await make('/tags', { name: 'Trip Tag' });
    for (let i = 0; i < 6; i++) {
      ids.event = await make('/events', {
        title: `Trip ${i}`,
        start_date: at(2 + i, 10),
        end_date: at(2 + i, 12),
        status: 'publish',
        venue: ids.venue,
        organizer: [ids.organizer],
        categories: [ids.category],
        tags: [ids.tag],
        featured: i % 2 === 0,
      });
    }
    // Added after the writes: every request from here on takes at least this long.
    stack().add(
      (next) => async (args) => {
        await new Promise((r) => setTimeout(r, ROUND_TRIP_MS));
        return next(args);
      },
      { step: 'initialize', name: 'addedRoundTrip' },
    );
  });
  afterAll(() => {
    stack().remove('addedRoundTrip');
  });

  /** Runs `fn` with `before` done ahead of every request for a credential record. */
  async function withCredentialReads<T>(before: () => Promise<void>, fn: () => Promise<T>): Promise<T> {
    stack().add(
      ((next: (args: object) => Promise<unknown>) => async (args: { input?: { Key?: { pk?: unknown } } }) => {
        if (plain(args.input?.Key?.pk).startsWith(CREDENTIALS_PREFIX)) await before();
        return next(args);
      }) as never,
      { step: 'initialize', name: 'credentialReads' },
    );
    try {
      return await fn();
    } finally {
      stack().remove('credentialReads');
    }
  }

  it('reads 1,000 keys in ten BatchGet requests, four at a time: three stages', async () => {
    capacity.reset();
    const found = await storedItems(Array.from({ length: 1000 }, (_, i) => ({ pk: `ROUND#${i}`, sk: 'NONE' })));
    const used = capacity.snapshot();
    expect(found.size).toBe(0);
    expect(used.commands.BatchGetItemCommand).toBe(10);
    expect(used.stages).toBe(3);
  });

  it('lists a page of events in two stages, unfiltered or filtered by one id', async () => {
    const rows: string[] = [];
    for (const [name, query] of [
      ['default window', {}],
      ['venue', { venue: ids.venue }],
      ['organizer', { organizer: ids.organizer }],
      ['category', { categories: ids.category }],
      ['tag', { tags: ids.tag }],
      ['featured', { featured: 'true' }],
      ['date window', { start_date: at(3, 0).slice(0, 10), end_date: at(5, 0).slice(0, 10) }],
    ] as const) {
      const m = await measure('/events', query);
      rows.push(`${name}: ${m.requests} requests in ${m.stages} stages ${JSON.stringify(m.commands)}`);
      expect(m.body.events.length, name).toBeGreaterThan(0);
      expect(m.stages, name).toBe(2);
      // Besides the table's change counter, read in the same round trip (lib/store/validators.ts).
      expect(m.requests, name).toBeLessThanOrEqual(4 + COUNTER);
      // The page's records, their terms and the filter's check are one batch read.
      expect(m.commands.BatchGetItemCommand, name).toBe(1);
      expect(m.commands.GetItemCommand, name).toBeUndefined();
    }
    console.info(`[round trips]\n${rows.join('\n')}`);
  });

  it('takes one stage more for a filter by slug, which is looked up first, unless the term is kept', async () => {
    const m = await measure('/events', { categories: 'trip-category' }, true);
    expect(m.body.events.length).toBe(6);
    expect(m.stages).toBe(3);
    // An anonymous page keeps its terms: the next one takes the slug's id from them.
    await measure('/events', { categories: ids.category });
    const kept = await measure('/events', { categories: 'Trip-Category' });
    expect(kept.body.events.length).toBe(6);
    expect(kept.stages).toBe(2);
    expect(kept.requests).toBeLessThanOrEqual(4 + COUNTER);
    // A slug no term has is still looked up, and refused.
    const res = await invoke('GET', 'en', '/events', { query: { categories: 'trip-tag' } });
    expect(res.status).toBe(400);
  });

  it('still answers 400 for a filter id that names nothing, after reading the page meanwhile', async () => {
    const res = await invoke('GET', 'en', '/events', { query: { venue: ids.organizer } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });

  it('lists venues and organizers in two requests, terms in one', async () => {
    const rows: string[] = [];
    for (const path of ['/venues', '/organizers', '/categories', '/tags']) {
      const m = await measure(path);
      rows.push(`${path}: ${m.requests} requests in ${m.stages} stages ${JSON.stringify(m.commands)}`);
      expect(m.requests, path).toBe((path === '/venues' || path === '/organizers' ? 2 : 1) + KEPT);
      expect(m.stages, path).toBe(m.requests - KEPT);
    }
    console.info(`[round trips]\n${rows.join('\n')}`);
  });

  it('lists for an editor in two stages too: each status partition read at the same time, the terms in the batch read', async () => {
    const m = await measure('/events', { categories: ids.category }, true);
    expect(m.body.events[0].categories[0].id).toBe(ids.category);
    expect(m.stages).toBe(2);
    expect(m.commands.BatchGetItemCommand).toBe(1);
  });

  it('reads an event by id in two stages for an identified caller (the record, then its terms), in one request for anyone else', async () => {
    const editor = await measure(`/events/${ids.event}`, {}, true);
    expect(editor.stages).toBe(2);
    expect(editor.requests).toBe(2 + KEPT);
    // The first anonymous read keeps the terms it read (for TERM_CACHE_SECONDS); the next reads none.
    await measure(`/events/${ids.event}`);
    const anonymous = await measure(`/events/${ids.event}`);
    expect(anonymous.requests).toBe(1 + KEPT);
    expect(anonymous.stages).toBe(1);
    expect(anonymous.commands).toEqual({ GetItemCommand: 1 });
    expect(anonymous.body.categories).toEqual(editor.body.categories);
    const bySlug = await measure(`/events/by-slug/${anonymous.body.slug}`);
    expect(bySlug.requests).toBe(1 + KEPT);
    expect(bySlug.stages).toBe(1);
    expect(bySlug.body.tags).toEqual(editor.body.tags);
  });

  it("runs an identified reader's role refresh beside the read, and answers after it", async () => {
    forgetConfirmedRoles();
    const editor = await measure(`/events/${ids.event}`, {}, true);
    // The stored role (the user has no passwords: a read finds nothing) is read while the event is.
    expect(editor.commands).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1 });
    expect(editor.stages).toBe(2);
    // A slow refresh holds the answer back: Lambda may freeze the process once the answer is out.
    forgetConfirmedRoles();
    const started = performance.now();
    await withCredentialReads(
      () => new Promise((r) => setTimeout(r, 4 * ROUND_TRIP_MS)),
      () => measure(`/events/${ids.event}`, {}, true),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * ROUND_TRIP_MS);
  });

  async function measureCreate(path: string, body: Record<string, unknown>) {
    capacity.reset();
    const res = await invoke('POST', 'en', path, { body, token: editorToken });
    const used = capacity.snapshot();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { requests: used.requests, stages: used.stages, commands: used.commands, body: res.body };
  }

  it("allocates a new record's id and reads its free slug in one stage", async () => {
    const event = await measureCreate('/events', { title: 'Trip in parallel', start_date: at(3, 9), end_date: at(3, 10), status: 'publish' });
    expect(event.body.slug).toBe('trip-in-parallel');
    // Role refresh, then the id beside the slug's guards, then the transaction, then the change
    // counter's bump before the answer (lib/store/validators.ts).
    expect(event.commands).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1 + COUNTER, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(event.stages).toBe(3 + COUNTER);
    const tag = await measureCreate('/tags', { name: 'Trip Parallel Tag' });
    expect(tag.body.slug).toBe('trip-parallel-tag');
    expect(tag.stages).toBe(tag.requests - 1);
  });

  it('waits for the id when the slug falls back to it', async () => {
    const event = await measureCreate('/events', { title: '!!!', start_date: at(3, 9), end_date: at(3, 10), status: 'publish' });
    expect(event.body.slug).toBe(String(event.body.id));
    expect(event.requests).toBe(4 + COUNTER);
    // The id comes from the ids this process reserved (lib/store/ids.ts): the slug's read, and the
    // claim of the slug beside it, wait for no request.
    expect(event.stages).toBe(3 + COUNTER);
  });

  it('answers a read whose role refresh failed, and tries the refresh again on the next one', async () => {
    forgetConfirmedRoles();
    const unavailable = async () => {
      throw new Error('credential record unavailable');
    };
    const first = await withCredentialReads(unavailable, () => measure(`/events/${ids.event}`, {}, true));
    expect(first.body.id).toBe(ids.event);
    const again = await measure(`/events/${ids.event}`, {}, true);
    expect(again.commands).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1 });
    const confirmed = await measure(`/events/${ids.event}`, {}, true);
    expect(confirmed.commands).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1 });
  });
});
