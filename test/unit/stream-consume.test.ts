// The consumer's batch semantics (lib/stream/consume.ts) with triggers of the test's own, its log
// line and metrics, the feed's message shape, and EventBridge's partial failures.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { METRICS } from '#lib/observe/metric-names.js';
import type { Change, Trigger } from '#lib/stream/change.js';
import { consume, consumeBatch } from '#lib/stream/consume.js';
import { feedMessage } from '#lib/stream/feed-trigger.js';
import { EventBridgePublisher, FeedPublishError, feedPublisher, installPublisher } from '#lib/stream/publisher.js';
import { activeTriggers, registerTrigger, TRIGGERS } from '#lib/stream/triggers.js';
import { captureOutput } from '../support/lambda.js';

let n = 0;
/** A venue's create, or a guard item's, with a sequence number in batch order. */
function rec(pk: string, sk = 'POST', title = pk): DynamoDBRecord {
  n++;
  const id = Number(pk.split('#')[1]) || 0;
  const item = { pk, sk, id, kind: 'venue', lang: 'en', status: 'publish', version: 1, title };
  return {
    eventID: `e${n}`,
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000) - 2,
      Keys: marshall({ pk, sk }) as any,
      NewImage: marshall(item) as any,
      SequenceNumber: String(n).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

const batch = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

function recorder(failOn: (c: Change) => boolean = () => false): Trigger & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: 'recorder',
    seen,
    wants: () => true,
    async apply(c) {
      seen.push(String(c.new?.title));
      await new Promise((ok) => setTimeout(ok, 1));
      if (failOn(c)) throw new Error(`failed ${String(c.new?.title)}`);
    },
  };
}

const quiet = <T>(fn: () => Promise<T>) => captureOutput(fn);

describe('consume', () => {
  it('reports nothing when every record succeeds, and ignores items that are not records', async () => {
    const t = recorder();
    const { result, json } = await quiet(() => consumeBatch(batch(rec('POST#1'), rec('SLUG#venue#en#a', 'SLUG'), rec('POST#2')), { triggers: [t] }));
    expect(result.response).toEqual({ batchItemFailures: [] });
    expect(t.seen.sort()).toEqual(['POST#1', 'POST#2']);
    expect(result.summary).toMatchObject({ records: 3, processed: 3, changes: 2, ignored: 1, applied: { recorder: 2 } });
    const line = json.find((l) => l.message === 'stream batch')!;
    expect(line).toMatchObject({ level: 'INFO', operation: 'stream.consumer', records: 3, processed: 3, changes: 2, ignored: 1, applied: { recorder: 2 } });
    expect(line.lag_ms).toBeGreaterThanOrEqual(0);
  });

  it('names the first failed record, in batch order, and keeps each item’s records in order', async () => {
    const records = [rec('POST#1', 'POST', 'a1'), rec('POST#2', 'POST', 'b1'), rec('POST#2', 'POST', 'b2'), rec('POST#3', 'POST', 'c1'), rec('POST#1', 'POST', 'a2')];
    // Two failures: the earlier one in the batch is reported, whichever failed first in time.
    const t = recorder((c) => c.new?.title === 'c1' || c.new?.title === 'b2');
    const { result, json } = await quiet(() => consumeBatch(batch(...records), { triggers: [t] }));
    expect(result.response).toEqual({ batchItemFailures: [{ itemIdentifier: records[2]!.dynamodb!.SequenceNumber }] });
    expect(result.summary.processed).toBe(2);
    expect(t.seen).toContain('a1');
    expect(t.seen).toContain('b1');
    // Records of one item one after the other, in stream order.
    expect(t.seen.indexOf('b1')).toBeLessThan(t.seen.indexOf('b2'));
    if (t.seen.includes('a2')) expect(t.seen.indexOf('a1')).toBeLessThan(t.seen.indexOf('a2'));
    expect(
      json
        .filter((l) => l.message === 'stream trigger failed')
        .map((l) => l.error.message)
        .sort(),
    ).toContain('failed b2');
    expect(json.find((l) => l.message === 'stream batch')).toMatchObject({ failed_sequence: records[2]!.dynamodb!.SequenceNumber, processed: 2 });
  });

  it('runs every trigger that wants a change, and fails the record when any of them fails', async () => {
    const calls: string[] = [];
    const ok: Trigger = { id: 'ok', wants: () => true, apply: async () => void calls.push('ok') };
    const picky: Trigger = { id: 'picky', wants: () => false, apply: async () => void calls.push('picky') };
    const broken: Trigger = {
      id: 'broken',
      wants: () => true,
      apply: async () => {
        throw new Error('broken');
      },
    };
    const r = rec('POST#9');
    const { result } = await quiet(() => consume(batch(r), { triggers: [broken, ok, picky] }));
    expect(calls).toEqual(['ok']);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: r.dynamodb!.SequenceNumber }] });
  });

  it('fails a record it cannot decode', async () => {
    const bad = rec('POST#4');
    bad.dynamodb!.NewImage!.kind = { S: 'page' };
    const { result, json } = await quiet(() => consume(batch(rec('POST#3'), bad), { triggers: [recorder()] }));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: bad.dynamodb!.SequenceNumber }] });
    expect(json.find((l) => l.message === 'stream record not decoded')).toMatchObject({ level: 'ERROR', sequence: bad.dynamodb!.SequenceNumber });
  });

  describe('metrics', () => {
    const saved = process.env.POWERTOOLS_METRICS_DISABLED;
    afterEach(() => {
      if (saved === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
      else process.env.POWERTOOLS_METRICS_DISABLED = saved;
    });

    it('publishes records, failures and lag per batch in EMF, under the operation stream.consumer', async () => {
      process.env.POWERTOOLS_METRICS_DISABLED = 'false';
      const r = rec('POST#5');
      const { json } = await quiet(() =>
        consume(batch(rec('POST#4'), r), { triggers: [recorder((c) => c.id === 5)], now: () => (r.dynamodb!.ApproximateCreationDateTime! + 3) * 1000 }),
      );
      const emf = json.find((l) => l._aws)!;
      expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({ Dimensions: [['operation']] });
      expect(emf._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name).sort()).toEqual([METRICS.streamFailures, METRICS.streamLag, METRICS.streamRecords].sort());
      expect(emf).toMatchObject({ operation: 'stream.consumer', [METRICS.streamRecords]: 1, [METRICS.streamFailures]: 1, [METRICS.streamLag]: 3000 });
    });
  });
});

describe('triggers', () => {
  it('has the feed, and takes registered triggers until they are removed', () => {
    expect(TRIGGERS.map((t) => t.id)).toContain('feed');
    const extra: Trigger = { id: 'extra', wants: () => false, apply: async () => undefined };
    const remove = registerTrigger(extra);
    expect(activeTriggers().map((t) => t.id)).toEqual([...TRIGGERS.map((t) => t.id), 'extra']);
    expect(() => registerTrigger({ ...extra })).toThrow(/already/);
    remove();
    expect(activeTriggers()).toEqual(TRIGGERS);
  });
});

describe('feed messages', () => {
  it('names the kind and the action in the detail type and carries the change id', () => {
    const change: Change = { eventId: 'abc', sequence: '1', kind: 'venue', id: 5, lang: 'lt', action: 'trash', revision: 4, at: '2026-01-01T00:00:00.000Z' };
    expect(feedMessage(change)).toEqual({
      source: 'event-calendar',
      detailType: 'venue.trashed',
      detail: { kind: 'venue', id: 5, lang: 'lt', action: 'trash', revision: 4, at: '2026-01-01T00:00:00.000Z', changeId: 'abc' },
    });
    for (const [action, past] of [
      ['create', 'created'],
      ['update', 'updated'],
      ['restore', 'restored'],
      ['delete', 'deleted'],
    ] as const) {
      expect(feedMessage({ ...change, kind: 'tag', action }).detailType).toBe(`tag.${past}`);
    }
  });
});

describe('EventBridge publisher', () => {
  const message = feedMessage({ eventId: 'x', sequence: '1', kind: 'event', id: 1, lang: 'en', action: 'create', revision: 1, at: '2026-01-01T00:00:00.000Z' });
  const client = (answer: { FailedEntryCount?: number; Entries?: { EventId?: string; ErrorCode?: string; ErrorMessage?: string }[] }) => {
    const sent: PutEventsCommand[] = [];
    return { sent, send: async (c: PutEventsCommand) => (sent.push(c), answer) };
  };

  it('sends one entry per message to the bus and returns the ids', async () => {
    const c = client({ FailedEntryCount: 0, Entries: [{ EventId: 'eb-1' }] });
    expect(await new EventBridgePublisher('bus-1', c).publish([message])).toEqual(['eb-1']);
    expect(c.sent[0]!.input.Entries).toEqual([
      { EventBusName: 'bus-1', Source: 'event-calendar', DetailType: 'event.created', Detail: JSON.stringify(message.detail), Time: new Date('2026-01-01T00:00:00.000Z') },
    ]);
  });

  it('throws when PutEvents reports a failed entry', async () => {
    const c = client({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }] });
    await expect(new EventBridgePublisher('bus-1', c).publish([message])).rejects.toThrow(FeedPublishError);
    await expect(new EventBridgePublisher('bus-1', c).publish([message])).rejects.toThrow(/InternalFailure try again/);
  });

  it('publishes to CHANGE_BUS_NAME unless a publisher is installed, and refuses to run without a bus', () => {
    const saved = process.env.CHANGE_BUS_NAME;
    try {
      installPublisher(undefined);
      delete process.env.CHANGE_BUS_NAME;
      expect(() => feedPublisher()).toThrow(/CHANGE_BUS_NAME/);
      process.env.CHANGE_BUS_NAME = 'calendar-changes';
      expect((feedPublisher() as EventBridgePublisher).busName).toBe('calendar-changes');
      const local = { publish: async () => [] };
      installPublisher(local);
      expect(feedPublisher()).toBe(local);
    } finally {
      installPublisher(undefined);
      if (saved === undefined) delete process.env.CHANGE_BUS_NAME;
      else process.env.CHANGE_BUS_NAME = saved;
    }
  });
});
