// A delete that unlinks its events in the request (a tag here; venues and organizers share the
// code, lib/logic/unlink.ts) on a table too slow to unlink them all before the function's timeout:
// it unlinks what it has time for, deletes the record, and answers 200; the stream consumer
// unlinks the rest. The old way answered 503 with the events half unlinked.
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { ANSWER_MARGIN_MS } from '#lib/runtime/deadline.js';
import { invoke } from '#lib/local/invoke.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';
import { useStreamPoller } from '../support/stream.js';
import { storedItem } from '../support/stored.js';

useFreshTable('unlink-leftovers', { stream: true });
const stream = useStreamPoller();

/** How long each event's rewrite takes while the table is slow. */
const SLOW_WRITE_MS = 5_000;

let editor: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'unlink-leftovers-editor');
});

type Sent = { TransactItems?: { Update?: { Key?: Record<string, unknown> } }[] };

/**
 * Runs `fn` while the first transaction that writes each event waits SLOW_WRITE_MS before it is
 * sent (a resend after a conflict on the tag's counts goes at once, so that one group of rewrites
 * takes that long whatever their order).
 */
async function slowEventWrites<T>(fn: () => Promise<T>): Promise<T> {
  const name = 'slowEventWrites';
  const slowed = new Set<string>();
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as Sent).TransactItems ?? [];
      const event = items.map((i) => String(i.Update?.Key?.pk)).find((pk) => pk.startsWith('POST#'));
      if (context.commandName === 'TransactWriteItemsCommand' && event && !slowed.has(event)) {
        slowed.add(event);
        await new Promise((ok) => setTimeout(ok, SLOW_WRITE_MS));
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

    // One group of rewrites fits in the function's time, and a second does not with the time of the
    // delete's own transaction kept (as long as the slow ones took) to spare: the delete fits, with
    // up to one slow write's time more for whatever else a loaded machine makes slower.
    await stream.poller.pause();
    const timeoutSeconds = (ANSWER_MARGIN_MS + SLOW_WRITE_MS * 3) / 1000;
    const res = await slowEventWrites(() => invoke('DELETE', 'en', `/tags/${tag.body.id}`, { query: { force: 'true' }, token: editor, timeoutSeconds }));
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
