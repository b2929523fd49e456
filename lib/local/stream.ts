// The local runtime's event source mapping: polls the table's stream in DynamoDB Local
// (DescribeStream, GetShardIterator, GetRecords) and runs the stream consumer's handler on each
// batch, as Lambda does on AWS (infra/stream.ts):
// - the same filter (records' items only), batches of up to STREAM_BATCH_SIZE, Lambda's event shape;
// - shards in order, a parent shard before its children;
// - partial batch failures: the batch is delivered again from the first failed record; after
//   `maxRetries` retries that record goes to the dead-letter list (and a log line) and the rest
//   of the batch carries on, as bisecting down to the one bad record and its on-failure
//   destination do on AWS;
// - the consumer's table grants (lib/local/grants.ts) and timeout.
// Without a checkpoint file it starts at the oldest record the stream keeps (TRIM_HORIZON); with
// one, after the last record it handled (npm start keeps it in .local).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '#lib/runtime/config.js';
import { withLogWriter, type LogWriter } from '#lib/observe/logger.js';
import type { Operation } from '#lib/contract/operations.js';
import { passesFilter } from '#lib/stream/decode.js';
import { STREAM_BATCH_SIZE, STREAM_CONSUMER, type BackgroundFunction } from '#lib/stream/functions.js';
import { localClient } from './dynamo.js';
import { lambdaContext, loadHandler } from './gateway.js';
import { runWithGrants } from './grants.js';
import { invocationSlots } from './slots.js';

process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

// Lambda's own handler type: `void` is what a handler that returns nothing gives.
// biome-ignore lint/suspicious/noConfusingVoidType: the shape of Lambda's stream handlers
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void> | DynamoDBBatchResponse | void;

export interface StreamPollerOptions {
  /** Default: the configured table (TABLE_NAME). */
  tableName?: string;
  /** Default: DYNAMODB_ENDPOINT. */
  endpoint?: string;
  /** Default: the consumer's handler module (STREAM_CONSUMER.handler). */
  handler?: StreamHandler;
  /** Retries of a failed record before it is dead-lettered, default 3. */
  maxRetries?: number;
  /** Pause between polls when the stream has nothing new, default 200 ms. */
  idleMs?: number;
  /** Where the last handled sequence number of each shard is kept across restarts. */
  checkpointFile?: string;
  /** The handler's log lines (lib/observe/log.ts); default: printed as Lambda prints them. */
  logWriter?: LogWriter;
  /** The poller's own lines (dead letters, errors); default console.error. */
  log?: (line: string) => void;
}

/** What the on-failure destination gets on AWS (DDBStreamBatchInfo), for the one record, plus the record itself. */
export interface DeadLetter {
  requestContext: { condition: 'RetryAttemptsExhausted'; approximateInvokeCount: number };
  DDBStreamBatchInfo: { shardId: string; startSequenceNumber: string; endSequenceNumber: string; batchSize: 1; streamArn: string };
  timestamp: string;
  record: DynamoDBRecord;
}

export interface Invocation {
  event: DynamoDBStreamEvent;
  /** What the handler answered; undefined when it threw or timed out. */
  response?: DynamoDBBatchResponse;
  error?: string;
}

export interface StreamPoller {
  readonly streamArn: string;
  /** Records that kept failing, oldest first. */
  readonly deadLetters: readonly DeadLetter[];
  /** The latest invocations (at most 100), oldest first. */
  readonly invocations: readonly Invocation[];
  /**
   * Resolves once a poll that started after this call found nothing new: every record written
   * before the call has been handled (done or dead-lettered). Rejects after `timeoutMs`.
   */
  drain(timeoutMs?: number): Promise<void>;
  /**
   * Stops polling after the current poll (resolves then) until resume(): writes made meanwhile
   * are delivered together, in as few batches as they fill.
   */
  pause(): Promise<void>;
  resume(): void;
  stop(): Promise<void>;
}

interface ShardState {
  id: string;
  parent?: string;
  iterator?: string;
  /** The last record handled (or filtered out). */
  last?: string;
  done: boolean;
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** The longest a poll waits for the local invocations to catch up. */
const MAX_DEFER_MS = 10_000;

/** An SDK attribute value as Lambda's JSON has it (binary in base64). */
function toLambdaValue(value: AttributeValue): LambdaAttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M)! };
  const { $unknown: _, ...plain } = value as AttributeValue & { $unknown?: unknown };
  // The streams client reads an empty map (`{"M":{}}`) as a value without a member.
  if (Object.keys(plain).length === 0) return { M: {} };
  return plain as LambdaAttributeValue;
}

function toLambdaImage(image: Record<string, AttributeValue> | undefined): Record<string, LambdaAttributeValue> | undefined {
  return image ? Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toLambdaValue(v)])) : undefined;
}

/** A GetRecords record as Lambda delivers it (the time in epoch seconds). */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const s = record.dynamodb ?? {};
  const out: DynamoDBRecord = {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? (process.env.AWS_REGION || 'us-east-1'),
    eventSourceARN: streamArn,
    dynamodb: {
      ...(s.ApproximateCreationDateTime ? { ApproximateCreationDateTime: s.ApproximateCreationDateTime.getTime() / 1000 } : {}),
      Keys: toLambdaImage(s.Keys),
      ...(s.NewImage ? { NewImage: toLambdaImage(s.NewImage) } : {}),
      ...(s.OldImage ? { OldImage: toLambdaImage(s.OldImage) } : {}),
      SequenceNumber: s.SequenceNumber,
      SizeBytes: s.SizeBytes,
      StreamViewType: s.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
  if (record.userIdentity) out.userIdentity = { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId };
  return out;
}

function readCheckpoints(file: string | undefined, streamArn: string): Record<string, string> {
  if (!file) return {};
  try {
    const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    return all[streamArn] ?? {};
  } catch {
    return {};
  }
}

/**
 * One invocation of a function that is not an API operation, as Lambda runs it: with its table
 * grants (lib/local/grants.ts) and its timeout (a handler still running then fails).
 */
export async function runFunction<E, R>(fn: BackgroundFunction, handler: (event: E, context: Context) => Promise<R> | R, event: E): Promise<R> {
  const timeoutMs = fn.timeoutSeconds * 1000;
  const context = lambdaContext(fn.id, randomUUID(), timeoutMs);
  // runWithGrants reads an operation's grants only; a background function's have the same shape.
  const grants = { tableActions: fn.tableActions, scopedGrants: fn.scopedGrants } as Pick<Operation, 'tableActions' | 'scopedGrants'> as Operation;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`)), timeoutMs);
  });
  try {
    return await Promise.race([runWithGrants(grants, context.functionName, () => Promise.resolve(handler(event, context))), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts polling the table's stream; the table must have one (ensureTable turns it on). */
export async function startStreamPoller(opts: StreamPollerOptions = {}): Promise<StreamPoller> {
  const tableName = opts.tableName ?? config().tableName;
  const endpoint = opts.endpoint ?? process.env.DYNAMODB_ENDPOINT;
  const maxRetries = opts.maxRetries ?? 3;
  const idleMs = opts.idleMs ?? 200;
  const log = opts.log ?? ((line: string) => console.error(line));
  const handler = opts.handler ?? ((await loadHandler(STREAM_CONSUMER.handler)) as unknown as StreamHandler);

  const dynamo = localClient(endpoint);
  let streamArn: string | undefined;
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.StreamSpecification?.StreamEnabled) streamArn = Table.LatestStreamArn;
  } finally {
    dynamo.destroy();
  }
  if (!streamArn) throw new Error(`Table ${tableName} has no stream (ensureTable in lib/local/dynamo.ts turns it on).`);
  const arn = streamArn;
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });

  const checkpoints = readCheckpoints(opts.checkpointFile, arn);
  const shards = new Map<string, ShardState>();
  const deadLetters: DeadLetter[] = [];
  const invocations: Invocation[] = [];
  const writer = opts.logWriter ?? ((json: string) => console.log(json));

  function saveCheckpoints(): void {
    if (!opts.checkpointFile) return;
    let all: Record<string, Record<string, string>> = {};
    try {
      all = JSON.parse(readFileSync(opts.checkpointFile, 'utf8')) as typeof all;
    } catch {
      // first save
    }
    // Only this stream's: an older stream of the table (or of a deleted --memory run) is gone.
    const mine = Object.fromEntries([...shards.values()].filter((s) => s.last).map((s) => [s.id, s.last!]));
    for (const key of Object.keys(all)) if (key.includes(`:table/${tableName}/stream/`)) delete all[key];
    all[arn] = mine;
    mkdirSync(dirname(opts.checkpointFile), { recursive: true });
    writeFileSync(opts.checkpointFile, `${JSON.stringify(all, null, 2)}\n`);
  }

  async function refreshShards(): Promise<void> {
    let start: string | undefined;
    do {
      const { StreamDescription: d } = await streams.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId: start }));
      for (const shard of d?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        shards.set(shard.ShardId, { id: shard.ShardId, parent: shard.ParentShardId, last: checkpoints[shard.ShardId], done: false });
      }
      start = d?.LastEvaluatedShardId;
    } while (start);
  }

  /** Invokes the handler once; returns the index of the first failed record, or -1. */
  async function invoke(records: DynamoDBRecord[]): Promise<number> {
    const event: DynamoDBStreamEvent = { Records: records };
    const invocation: Invocation = { event };
    invocations.push(invocation);
    if (invocations.length > 100) invocations.shift();
    try {
      const result = await withLogWriter(writer, () => runFunction(STREAM_CONSUMER, handler, event));
      invocation.response = (result as DynamoDBBatchResponse | undefined) ?? { batchItemFailures: [] };
    } catch (err) {
      // A handler that throws or times out fails the whole batch.
      invocation.error = (err as Error)?.stack ?? String(err);
      log(`[stream] ${STREAM_CONSUMER.id} failed: ${invocation.error}`);
      return 0;
    }
    const failures = invocation.response.batchItemFailures ?? [];
    if (failures.length === 0) return -1;
    // As Lambda: the earliest reported record; an id that names no record of the batch fails it all.
    const at = failures.map((f) => records.findIndex((r) => f.itemIdentifier && r.dynamodb?.SequenceNumber === f.itemIdentifier));
    return at.some((i) => i < 0) ? 0 : Math.min(...at);
  }

  let stopped = false;

  /** Delivers records until each is done or dead-lettered. */
  async function deliver(records: DynamoDBRecord[], shard: ShardState): Promise<void> {
    let pending = records;
    let attempts = 0;
    while (pending.length && !stopped) {
      const failed = await invoke(pending);
      if (failed < 0) return;
      const record = pending[failed]!;
      // A failure further on is a new record's first.
      attempts = failed === 0 ? attempts + 1 : 1;
      pending = pending.slice(failed);
      if (attempts <= maxRetries) {
        await sleep(Math.min(1_000, 25 * 2 ** attempts));
        continue;
      }
      const sequence = record.dynamodb?.SequenceNumber ?? '';
      deadLetters.push({
        requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
        DDBStreamBatchInfo: { shardId: shard.id, startSequenceNumber: sequence, endSequenceNumber: sequence, batchSize: 1, streamArn: arn },
        timestamp: new Date().toISOString(),
        record,
      });
      const key = record.dynamodb?.Keys ?? {};
      const keys = `${key.pk?.S ?? '?'}/${key.sk?.S ?? '?'}`;
      log(`[stream] dead letter: ${record.eventName} ${keys} (sequence ${sequence}) failed ${attempts} times; the consumer's log has the errors.`);
      pending = pending.slice(1);
      attempts = 0;
    }
  }

  async function pollShard(shard: ShardState): Promise<boolean> {
    if (!shard.iterator) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shard.id,
          ...(shard.last ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.last } : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      );
      shard.iterator = ShardIterator;
      if (!shard.iterator) {
        shard.done = true;
        return false;
      }
    }
    let out: GetRecordsCommandOutput;
    try {
      out = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: STREAM_BATCH_SIZE }));
    } catch (err) {
      if (err instanceof ExpiredIteratorException) {
        shard.iterator = undefined;
        return true;
      }
      if (err instanceof TrimmedDataAccessException) {
        // The checkpoint is older than what the stream keeps: carry on from the oldest kept.
        log(`[stream] records after ${shard.last} of shard ${shard.id} are gone from the stream (older than 24 hours); continuing from the oldest kept.`);
        shard.last = undefined;
        shard.iterator = undefined;
        return true;
      }
      throw err;
    }
    const got = out.Records ?? [];
    if (got.length) {
      const records = got.map((r) => toLambdaRecord(r, arn)).filter(passesFilter);
      if (records.length) await deliver(records, shard);
      if (stopped) return false;
      shard.last = got.at(-1)!.dynamodb?.SequenceNumber ?? shard.last;
      saveCheckpoints();
    }
    shard.iterator = out.NextShardIterator;
    if (!shard.iterator) shard.done = true;
    return got.length > 0;
  }

  /** One pass over the open shards; true when any had records. */
  async function pass(): Promise<boolean> {
    await refreshShards();
    let any = false;
    for (const shard of shards.values()) {
      if (shard.done || stopped) continue;
      const parent = shard.parent ? shards.get(shard.parent) : undefined;
      if (parent && !parent.done) continue;
      if (await pollShard(shard)) any = true;
    }
    return any;
  }

  /**
   * On AWS the consumer runs beside the API, on processors of its own; here it shares the process
   * and DynamoDB Local with the invocations. While invocations wait for a slot (lib/local/slots.ts),
   * a poll waits too, up to MAX_DEFER_MS since the last one: the consumer falls behind for the
   * length of a burst (searches read the writes it has not indexed yet from RECENT items) instead
   * of making the burst's requests run out of time.
   */
  let lastPass = Date.now();
  const whileSaturated = async () => {
    while (!stopped && invocationSlots().load.waiting > 0 && Date.now() - lastPass < MAX_DEFER_MS) await sleep(idleMs);
    lastPass = Date.now();
  };
  let started = 0;
  let idleAfter = 0;
  let lastError: unknown;
  const waiters = new Set<() => void>();
  let paused: { until: Promise<void>; resume: () => void } | undefined;
  let polling: Promise<unknown> = Promise.resolve();
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      if (paused) {
        await paused.until;
        continue;
      }
      await whileSaturated();
      const n = ++started;
      let any = false;
      try {
        polling = pass();
        any = (await polling) as boolean;
        failures = 0;
        lastError = undefined;
      } catch (err) {
        lastError = err;
        if (stopped) break;
        if (failures++ === 0) log(`[stream] polling ${tableName}'s stream failed: ${(err as Error)?.message ?? err}; retrying.`);
        await sleep(Math.min(5_000, idleMs * 2 ** failures));
        continue;
      }
      if (!any) {
        idleAfter = n;
        for (const wake of waiters) wake();
        await sleep(idleMs);
      }
    }
  })();

  return {
    streamArn: arn,
    deadLetters,
    invocations,
    drain(timeoutMs = 30_000) {
      const after = started;
      if (stopped) return Promise.reject(new Error('The stream poller is stopped.'));
      return new Promise<void>((ok, fail) => {
        const check = () => {
          if (idleAfter > after) {
            done();
            ok();
          } else if (stopped) {
            done();
            fail(new Error('The stream poller was stopped before the stream was drained.'));
          }
        };
        const timer = setTimeout(() => {
          done();
          fail(new Error(`The stream of ${tableName} was not drained within ${timeoutMs} ms${lastError ? ` (last error: ${(lastError as Error).message})` : ''}.`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    async pause() {
      if (!paused) {
        let resume!: () => void;
        const until = new Promise<void>((ok) => (resume = ok));
        paused = { until, resume };
      }
      await polling.catch(() => undefined);
    },
    resume() {
      const p = paused;
      paused = undefined;
      p?.resume();
    },
    async stop() {
      stopped = true;
      paused?.resume();
      for (const wake of waiters) wake();
      await loop;
      streams.destroy();
    },
  };
}
