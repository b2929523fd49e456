// The stream consumer: each record of a batch is decoded into a Change and handed to every
// trigger that wants it. The answer follows Lambda's partial batch response for streams: the
// FIRST failed record is reported, so that it and every record after it come again, in order,
// while the records before it count as done. Triggers are idempotent (a retried batch repeats the
// records after the failure that had succeeded).
//
// Records of one item are handled one after the other in stream order; different items, whose
// order the stream does not promise anyway (they may live in different shards), run side by side.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#lib/observe/log.js';
import { METRICS } from '#lib/observe/metric-names.js';
import { publishMetrics } from '#lib/observe/metrics.js';
import { pool } from '#lib/runtime/pool.js';
import type { Change, Trigger } from './change.js';
import { decode } from './decode.js';
import { STREAM_CONSUMER } from './functions.js';
import { activeTriggers } from './triggers.js';

/** Items whose records are handled at once. */
const CONCURRENCY = 8;

export interface ConsumeOptions {
  /** Default: the trigger table and the registered triggers (lib/stream/triggers.ts). */
  triggers?: readonly Trigger[];
  /** Lambda's request id, for the batch's log line. */
  functionRequestId?: string;
  now?: () => number;
}

/** What happened to one batch (logged, and returned by consumeBatch for tests and the local poller). */
export interface BatchSummary {
  records: number;
  /** Records finished (before the first failure), ignored ones included. */
  processed: number;
  changes: number;
  /** Records of items that are not records (guards, counters, links, markers…). */
  ignored: number;
  /** Changes applied, per trigger id. */
  applied: Record<string, number>;
  /** The first failed record's sequence number. */
  failedSequence?: string;
  /** now − the oldest record's ApproximateCreationDateTime. */
  lagMs?: number;
  durationMs: number;
}

const keyOf = (record: DynamoDBRecord) => `${record.dynamodb?.Keys?.pk?.S ?? ''}\u0000${record.dynamodb?.Keys?.sk?.S ?? ''}`;

function describe(change: Change | undefined) {
  return change ? { kind: change.kind, id: change.id, lang: change.lang, action: change.action, revision: change.revision } : undefined;
}

/** Decodes and applies one record; throws the first error of its triggers (after all have run). */
async function handleRecord(record: DynamoDBRecord, triggers: readonly Trigger[], summary: BatchSummary): Promise<void> {
  let change: Change | undefined;
  try {
    change = decode(record);
    if (!change) {
      summary.ignored++;
      return;
    }
    summary.changes++;
    const wanting = triggers.filter((t) => t.wants(change!));
    const wanted = new Set(wanting.map((t) => t.id));
    const done = new Set<string>();
    let first: unknown;
    // In waves: a trigger runs once those it comes `after` have applied the change. Every trigger
    // of a wave gets its chance even when one fails: the retry repeats them all, idempotently.
    for (let waiting = wanting; waiting.length; ) {
      const ready = waiting.filter((t) => (t.after ?? []).every((id) => !wanted.has(id) || done.has(id)));
      if (!ready.length) {
        if (first === undefined) throw new Error(`The triggers ${waiting.map((t) => t.id).join(', ')} wait for each other.`);
        break;
      }
      waiting = waiting.filter((t) => !ready.includes(t));
      const results = await Promise.allSettled(ready.map((t) => t.apply(change!)));
      results.forEach((r, i) => {
        const trigger = ready[i]!.id;
        if (r.status === 'fulfilled') {
          done.add(trigger);
          summary.applied[trigger] = (summary.applied[trigger] ?? 0) + 1;
          return;
        }
        first ??= r.reason;
        logger.error({
          message: 'stream trigger failed',
          operation: STREAM_CONSUMER.id,
          trigger,
          sequence: record.dynamodb?.SequenceNumber,
          event_id: record.eventID,
          change: describe(change),
          error: r.reason instanceof Error ? r.reason : new Error(String(r.reason)),
        });
      });
    }
    if (first !== undefined) throw first;
  } catch (err) {
    if (change === undefined) {
      logger.error({
        message: 'stream record not decoded',
        operation: STREAM_CONSUMER.id,
        sequence: record.dynamodb?.SequenceNumber,
        event_id: record.eventID,
        error: err instanceof Error ? err : new Error(String(err)),
      });
    }
    throw err;
  }
}

/** Runs a batch and returns Lambda's answer with what happened. */
export async function consumeBatch(event: DynamoDBStreamEvent, opts: ConsumeOptions = {}): Promise<{ response: DynamoDBBatchResponse; summary: BatchSummary }> {
  const now = opts.now ?? Date.now;
  const started = now();
  const triggers = opts.triggers ?? activeTriggers();
  const records = event.Records ?? [];
  const summary: BatchSummary = { records: records.length, processed: 0, changes: 0, ignored: 0, applied: {}, durationMs: 0 };

  // Items in order of their first record; each item's records in stream order.
  const groups = new Map<string, number[]>();
  records.forEach((r, i) => {
    const key = keyOf(r);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  let failedAt = Infinity;
  // Each group (an item's records) in order; a failure is noted, not thrown, so other items go on.
  await pool([...groups.values()], CONCURRENCY, async (group) => {
    for (const i of group) {
      // Past a failure everything is delivered again: no use doing it now.
      if (i > failedAt) break;
      try {
        await handleRecord(records[i]!, triggers, summary);
      } catch {
        failedAt = Math.min(failedAt, i);
        break;
      }
    }
  });

  const failed = Number.isFinite(failedAt) ? records[failedAt] : undefined;
  summary.processed = failed ? failedAt : records.length;
  if (failed) summary.failedSequence = failed.dynamodb?.SequenceNumber ?? '';
  const oldest = Math.min(...records.map((r) => r.dynamodb?.ApproximateCreationDateTime ?? Infinity));
  if (Number.isFinite(oldest)) summary.lagMs = Math.max(0, Math.round(now() - oldest * 1000));
  summary.durationMs = Math.round((now() - started) * 10) / 10;

  logger.info({
    message: 'stream batch',
    operation: STREAM_CONSUMER.id,
    function_request_id: opts.functionRequestId,
    records: summary.records,
    processed: summary.processed,
    changes: summary.changes,
    ignored: summary.ignored,
    applied: summary.applied,
    failed_sequence: summary.failedSequence,
    lag_ms: summary.lagMs,
    duration_ms: summary.durationMs,
  });
  publishStreamMetrics(summary);
  return { response: { batchItemFailures: failed ? [{ itemIdentifier: summary.failedSequence! }] : [] }, summary };
}

/** The handler's work: the partial batch response. */
export async function consume(event: DynamoDBStreamEvent, opts: ConsumeOptions = {}): Promise<DynamoDBBatchResponse> {
  return (await consumeBatch(event, opts)).response;
}

/** The batch's metrics, under the operation dimension `stream.consumer` (as the API's functions). */
function publishStreamMetrics(summary: BatchSummary): void {
  publishMetrics(STREAM_CONSUMER.id, [
    { name: METRICS.streamRecords, unit: 'Count', value: summary.processed },
    { name: METRICS.streamFailures, unit: 'Count', value: summary.failedSequence === undefined ? 0 : 1 },
    ...(summary.lagMs !== undefined ? [{ name: METRICS.streamLag, unit: 'Milliseconds' as const, value: summary.lagMs }] : []),
  ]);
}
