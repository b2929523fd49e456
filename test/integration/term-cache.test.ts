// Terms kept between requests (lib/logic/term-cache.ts): an answer shared caches may keep shows
// terms at most TERM_CACHE_SECONDS old (by default its own max-age); an identified caller always
// sees them as stored.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capacity } from '#lib/store/db.js';
import { readValidator } from '#lib/store/validators.js';
import { config, resetConfig } from '#lib/runtime/config.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { useFreshTable } from '../support/table.js';

/**
 * Reads of the table's change counter beside an event read's own: none in a warm function, which
 * read it a moment ago (lib/store/validators.ts; `shownCount` reads it first).
 */
const COUNTER = 0;

let editorToken: string;
let categoryId = 0;
let firstEvent = 0;
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;

async function makeEvent(title: string, days: number): Promise<number> {
  const res = await invoke('POST', 'en', '/events', {
    body: { title, start_date: at(days), end_date: at(days).replace('10:', '11:'), status: 'publish', categories: [categoryId] },
    token: editorToken,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** The category's count as an event read shows it, and the requests the read took. */
async function shownCount(editor = false): Promise<{ count: number; requests: number; cacheControl: string | undefined }> {
  await readValidator();
  capacity.reset();
  const res = await invoke('GET', 'en', `/events/${firstEvent}`, { token: editor ? editorToken : undefined });
  expect(res.status).toBe(200);
  return { count: res.body.categories[0].count, requests: capacity.snapshot().requests, cacheControl: res.headers['cache-control'] as string | undefined };
}

const setSeconds = (value: string | undefined) => {
  if (value === undefined) delete process.env.TERM_CACHE_SECONDS;
  else process.env.TERM_CACHE_SECONDS = value;
  resetConfig();
};

describe('terms kept for anonymous answers', () => {
  useFreshTable('term-cache');

  beforeAll(async () => {
    editorToken = await roleToken('editor', 'term-cache-editor');
    const cat = await invoke('POST', 'en', '/categories', { body: { name: 'Kept Category' }, token: editorToken });
    categoryId = cat.body.id;
    firstEvent = await makeEvent('Kept one', 3);
  });
  afterEach(() => setSeconds(undefined));

  it('keeps them for the answer max-age by default', () => {
    setSeconds(undefined);
    expect(config().termCacheSeconds).toBe(config().cacheMaxAge);
    process.env.CACHE_MAX_AGE = '7';
    resetConfig();
    try {
      expect(config().termCacheSeconds).toBe(7);
    } finally {
      delete process.env.CACHE_MAX_AGE;
      resetConfig();
    }
  });

  it('shows a kept count to anonymous callers until it expires, the stored one to identified callers', async () => {
    setSeconds('60');
    await shownCount();
    const before = await shownCount();
    expect(before.requests).toBe(1 + COUNTER);
    expect(before.cacheControl).toMatch(/^public, max-age=/);
    await makeEvent('Kept two', 4);
    const kept = await shownCount();
    expect(kept.count).toBe(before.count);
    expect(kept.requests).toBe(1 + COUNTER);
    const stored = await shownCount(true);
    expect(stored.count).toBe(before.count + 1);
    expect(stored.cacheControl).toBe('private, no-store');
    // Neither the identified read nor the write kept what they read.
    expect((await shownCount()).count).toBe(before.count);
    // A shorter setting applies to what is already kept.
    setSeconds('1');
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await shownCount();
    expect(expired.count).toBe(before.count + 1);
    expect(expired.requests).toBe(2 + COUNTER);
    setSeconds('60');
    expect((await shownCount()).requests).toBe(1 + COUNTER);
  });

  it('keeps nothing with TERM_CACHE_SECONDS=0', async () => {
    setSeconds('0');
    const before = await shownCount();
    expect(before.requests).toBe(2 + COUNTER);
    await makeEvent('Unkept', 6);
    const after = await shownCount();
    expect(after.count).toBe(before.count + 1);
    expect(after.requests).toBe(2 + COUNTER);
  });

  it('lists with kept terms too: a category filter by id is checked from them', async () => {
    setSeconds('5');
    await shownCount();
    capacity.reset();
    const res = await invoke('GET', 'en', '/events', { query: { categories: categoryId } });
    expect(res.status).toBe(200);
    const used = capacity.snapshot();
    expect(res.body.events.every((e: { categories: { id: number }[] }) => e.categories[0]!.id === categoryId)).toBe(true);
    // The page's records alone in the batch read: no term key, no check key.
    expect(used.commands.BatchGetItemCommand).toBe(1);
    expect(used.requests).toBeLessThanOrEqual(4);
    // A term id that names a tag is still refused from the kept terms.
    const tag = await invoke('POST', 'en', '/tags', { body: { name: 'Kept Tag' }, token: editorToken });
    const tagged = await invoke('POST', 'en', '/events', {
      body: { title: 'Tagged', start_date: at(7), end_date: at(7).replace('10:', '11:'), status: 'publish', tags: [tag.body.id] },
      token: editorToken,
    });
    // Reading the event keeps its tag.
    await invoke('GET', 'en', `/events/${tagged.body.id}`, {});
    capacity.reset();
    const wrong = await invoke('GET', 'en', '/events', { query: { categories: tag.body.id } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('rest_invalid_param');
    expect(capacity.snapshot().commands.BatchGetItemCommand ?? 0).toBe(0);
  });
});
