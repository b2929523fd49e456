// The demo calendar loads once, in three languages, through the real handlers.
import { describe, expect, it } from 'vitest';
import { capacity } from '#lib/store/db.js';
import { termsOf } from '#lib/logic/common.js';
import { seedDemo } from '#lib/local/seed.js';
import { queryAll } from '#lib/store/reads.js';
import { listKeys } from '#lib/store/keys.js';
import { useFreshTable } from '../support/table.js';

const listed = async (kind: 'event' | 'venue', lang: 'en' | 'lt' | 'ru', status?: string) =>
  (await queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': listKeys.partition(kind, lang, status) } })).length;

describe('seedDemo', () => {
  useFreshTable('seed');

  it('loads events, venues and categories in en, lt and ru, and does nothing the second time', async () => {
    // 40 spread events and 6 weekly series of 8.
    expect(await seedDemo(40)).toEqual({ seeded: true, events: 88 });
    for (const lang of ['en', 'lt', 'ru'] as const) {
      expect(await listed('venue', lang, 'publish'), lang).toBeGreaterThan(0);
      expect(
        (await termsOf(lang)).filter((t) => t.taxonomy === 'category'),
        lang,
      ).toHaveLength(12);
    }
    const events = async () => {
      let n = 0;
      for (const lang of ['en', 'lt', 'ru'] as const) for (const s of ['publish', 'draft']) n += await listed('event', lang, s);
      return n;
    };
    const before = await events();
    expect(before).toBeGreaterThan(30 + 48);
    capacity.reset();
    expect(await seedDemo(40)).toEqual({ seeded: false, events: 88 });
    expect(capacity.snapshot().write).toBe(0);
    expect(await events()).toBe(before);
    // About 120 records through the real handlers, retrying lost races with back-off: on a machine
    // busy with other test files this has taken more than two minutes.
  }, 300_000);
});
