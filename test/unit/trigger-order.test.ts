// A trigger that comes `after` others (lib/stream/change.ts) is given a change once they applied
// it, and not at all when one of them failed (the record is retried); the table's counter trigger
// comes after the triggers that rewrite records.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Trigger } from '#lib/stream/change.js';
import { consumeBatch } from '#lib/stream/consume.js';
import { TRIGGERS } from '#lib/stream/triggers.js';
import { captureOutput } from '../support/lambda.js';

const batch = (): DynamoDBStreamEvent => ({
  Records: [
    {
      eventID: 'e1',
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
        Keys: marshall({ pk: 'POST#1', sk: 'POST' }) as any,
        NewImage: marshall({ pk: 'POST#1', sk: 'POST', id: 1, kind: 'venue', lang: 'en', status: 'publish', version: 1, title: 't' }) as any,
        SequenceNumber: '1',
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    },
  ],
});

function trigger(id: string, log: string[], opts: { after?: string[]; fails?: boolean; wants?: boolean; ms?: number } = {}): Trigger {
  return {
    id,
    after: opts.after,
    wants: () => opts.wants ?? true,
    async apply() {
      log.push(`${id}:start`);
      await new Promise((ok) => setTimeout(ok, opts.ms ?? 1));
      if (opts.fails) throw new Error(`${id} failed`);
      log.push(`${id}:end`);
    },
  };
}

describe('trigger order', () => {
  it('starts a trigger after those it follows have ended, and runs the others beside them', async () => {
    const log: string[] = [];
    // `last` also follows one that does not want the change: it does not wait for it.
    const triggers = [trigger('last', log, { after: ['slow', 'quick', 'idle'] }), trigger('slow', log, { ms: 30 }), trigger('quick', log), trigger('idle', log, { wants: false })];
    const { result } = await captureOutput(() => consumeBatch(batch(), { triggers }));
    expect(result.response.batchItemFailures).toEqual([]);
    expect(log.indexOf('last:start')).toBeGreaterThan(log.indexOf('slow:end'));
    expect(log.indexOf('last:start')).toBeGreaterThan(log.indexOf('quick:end'));
    expect(log.indexOf('quick:start')).toBeLessThan(log.indexOf('slow:end'));
    expect(result.summary.applied).toEqual({ slow: 1, quick: 1, last: 1 });
  });

  it('holds a trigger back when one it follows failed, and fails the record', async () => {
    const log: string[] = [];
    const triggers = [trigger('broken', log, { fails: true }), trigger('after', log, { after: ['broken'] }), trigger('other', log)];
    const { result } = await captureOutput(() => consumeBatch(batch(), { triggers }));
    expect(result.response.batchItemFailures).toEqual([{ itemIdentifier: '1' }]);
    expect(log).not.toContain('after:start');
    expect(log).toContain('other:end');
  });

  it('fails a record whose triggers wait for each other', async () => {
    const log: string[] = [];
    const { result } = await captureOutput(() => consumeBatch(batch(), { triggers: [trigger('a', log, { after: ['b'] }), trigger('b', log, { after: ['a'] })] }));
    expect(result.response.batchItemFailures).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it('moves the change counter after the triggers that rewrite records', () => {
    const validators = TRIGGERS.find((t) => t.id === 'validators')!;
    expect(validators.after).toEqual(expect.arrayContaining(['search', 'cards']));
    for (const id of validators.after!) expect(TRIGGERS.some((t) => t.id === id)).toBe(true);
  });
});
