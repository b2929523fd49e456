// A delete that unlinks its events in the request (a tag here; venues and organizers share the
// code, lib/logic/unlink.ts) on a table too slow to unlink them all before the function's timeout (its reads of the events are
// made slow):
// it unlinks what it has time for, deletes the record, and answers 200; the stream consumer
// unlinks the rest. The old way answered 503 with the events half unlinked.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { remainingMs } from '#lib/runtime/deadline.js';
import { invoke } from '#lib/local/invoke.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';
import { useStreamPoller } from '../support/stream.js';
import { storedItem } from '../support/stored.js';
import { plain } from '../../bench/trace.js';

useFreshTable('unlink-leftovers', { stream: true });
const stream = useStreamPoller();

/**
 * What a slow read of an event leaves of the request's time: less than another group of rewrites
 * is expected to take (the first took the slow reads' time and its rewrites), enough for that
 * group's rewrites (DynamoDB Local runs them one after another, as they all count on the tag) and
 * the delete's own transaction, on a loaded machine too.
 */
const LEFT_AFTER_READ_MS = 12_000;
/** The function's timeout: time for the slow reads of one group, then LEFT_AFTER_READ_MS. */
const TIMEOUT_SECONDS = 25;

let editor: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'unlink-leftovers-editor');
});

/**
 * Runs `fn` while every read of one of `events` waits until the request has LEFT_AFTER_READ_MS
 * left: the first group of rewrites takes the request's time however loaded the machine is.
 */
async function slowEventReads<T>(events: number[], fn: () => Promise<T>): Promise<T> {
  const name = 'slowEventReads';
  const slowed = new Set(events.map((id) => keys.post(id).pk));
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const key = (args.input as { Key?: { pk?: unknown } }).Key;
      if (context.commandName === 'GetItemCommand' && slowed.has(plain(key?.pk)) && Number.isFinite(remainingMs())) {
        await new Promise((ok) => setTimeout(ok, Math.max(0, remainingMs() - LEFT_AFTER_READ_MS)));
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return await fn();
  } finally {
    db().middlewareStack.remove(name);
  }
}

describe('a delete that unlinks more events than the request has time for', () => {
  it('answers 200 having unlinked some, and the stream consumer unlinks the rest', { timeout: 120_000 }, async () => {
    const tag = await invoke('POST', 'en', '/tags', { body: { name: 'Slow Fan' }, token: editor });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
    const events: number[] = [];
    for (let i = 0; i < 20; i += 5) {
      const made = await Promise.all(
        [0, 1, 2, 3, 4].map((j) =>
          invoke('POST', 'en', '/events', {
            body: { title: `Slow fan ${i + j}`, start_date: '2033-03-03 10:00:00', end_date: '2033-03-03 11:00:00', status: 'publish', tags: [tag.body.id] },
            token: editor,
          }),
        ),
      );
      for (const m of made) {
        expect(m.status, JSON.stringify(m.body)).toBe(201);
        events.push(m.body.id as number);
      }
    }
    await stream.drain(60_000);
    const tagged = async () => {
      const stored = await Promise.all(events.map((id) => storedItem<EventItem>(keys.post(id))));
      return stored.filter((e) => e!.tags.includes(tag.body.id)).length;
    };
    expect(await tagged()).toBe(20);

    // The first group of rewrites takes nearly all the request's time; the next is left.
    await stream.poller.pause();
    const res = await slowEventReads(events, () => invoke('DELETE', 'en', `/tags/${tag.body.id}`, { query: { force: 'true' }, token: editor, timeoutSeconds: TIMEOUT_SECONDS }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: tag.body.id, name: 'Slow Fan' });
    expect(await storedItem(keys.term(tag.body.id))).toBeUndefined();
    const left = await tagged();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(20);

    // Readers never see the deleted tag, even on the events not yet unlinked.
    const listed = await invoke('GET', 'en', '/events', { query: { include: events.join(','), per_page: 50 } });
    expect(listed.status).toBe(200);
    expect(listed.body.events).toHaveLength(20);
    expect(listed.body.events.flatMap((e: { tags: unknown[] }) => e.tags)).toEqual([]);

    stream.poller.resume();
    await stream.drain(60_000);
    expect(await tagged()).toBe(0);
  });
});
