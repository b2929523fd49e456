// The webhook sender: receives the queued messages (lib/stream/webhook-trigger.ts) and POSTs each
// to its subscription's URL, signed as the Standard Webhooks specification signs them
// (lib/domain/webhook-signature.ts). The record is read as an editor reads it by id, when the
// message is sent (a message that waited for its retries carries the record as it now is).
//
// Retries: a non-2xx answer, a timeout (TIMEOUT_MS), a refused address or a network error makes
// the message visible again after the next wait of RETRY_SCHEDULE_S (SQS's
// ChangeMessageVisibility) and reports it failed; its group (the record's messages to this
// subscriber) waits behind it, so a record's messages stay in order, while every other group
// goes on. After the last wait (about three days in all) the message is given up on: it is kept
// with its payload among the subscription's deliveries, and the subscription is marked failing
// until a delivery succeeds again. Every attempt is recorded (time, status, duration).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ApiError } from '#lib/contract/errors.js';
import { operation, type OperationId } from '#lib/contract/operations.js';
import type { Reply } from '#lib/contract/reply.js';
import type { RequestContext } from '#lib/contract/request.js';
import { validateArgs } from '#lib/contract/validate.js';
import { signedHeaders } from '#lib/domain/webhook-signature.js';
import { readEvent } from '#lib/logic/event-feed.js';
import { readPost } from '#lib/logic/post-reads.js';
import { readTerm } from '#lib/logic/term-reads.js';
import { guardedLookup, targetError } from '#lib/logic/webhook-targets.js';
import { logger } from '#lib/observe/log.js';
import type { Lang } from '#lib/runtime/config.js';
import { getWebhook, recordDelivery, setWebhookFailing, type WebhookItem } from '#lib/store/webhooks.js';
import type { ChangeKind } from './change.js';
import { WEBHOOK_SENDER } from './functions.js';
import { RETRY_SCHEDULE_S, webhookQueue } from './webhook-queue.js';
import { METRICS } from '#lib/observe/metric-names.js';
import { publishMetrics } from '#lib/observe/metrics.js';
import type { WebhookJob } from './webhook-trigger.js';

/** How long a receiver has to answer. */
export const TIMEOUT_MS = 10_000;
/** The most bytes of a receiver's answer kept in an attempt's error. */
const ERROR_EXCERPT = 200;

const READS: Record<ChangeKind, [OperationId, (ctx: RequestContext) => Promise<Reply>]> = {
  event: ['events.get', (ctx) => readEvent(ctx as Parameters<typeof readEvent>[0])],
  venue: ['venues.get', (ctx) => readPost(ctx, 'venue')],
  organizer: ['organizers.get', (ctx) => readPost(ctx, 'organizer')],
  category: ['categories.get', readTerm],
  tag: ['tags.get', readTerm],
};

/** The record as an editor reads it by id (TEC's v1 shape); undefined when it is gone. */
export async function recordAsEditor(kind: ChangeKind, lang: Lang, id: number, now = new Date()): Promise<unknown> {
  const [opId, read] = READS[kind];
  const op = operation(opId);
  const skip = Object.entries(op.args)
    .filter(([, arg]) => arg.path)
    .map(([name]) => name);
  const ctx: RequestContext = {
    op,
    lang,
    path: { id },
    params: validateArgs(op.args, {}, { skip, unfilteredHtml: true }),
    input: {},
    principal: { sub: 'webhook-sender', role: 'editor' },
    method: 'GET',
    now,
  };
  try {
    const reply = await read(ctx);
    return reply.status === 200 ? reply.body : undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return undefined;
    throw err;
  }
}

/** The message's JSON body. */
export async function messageBody(job: WebhookJob): Promise<string> {
  const gone = job.action === 'delete' || job.action === 'trash';
  const record = gone ? undefined : await recordAsEditor(job.kind, job.lang, job.id);
  const data = {
    id: job.id,
    ...(job.action === 'trash' ? { trashed: true } : {}),
    ...(job.action === 'restore' ? { restored: true } : {}),
    ...(record !== undefined ? { record } : {}),
  };
  return JSON.stringify({ type: job.type, timestamp: job.at, data });
}

export interface PostResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/** One POST, bounded by `timeoutMs` from start to the answer's status line. Never throws. */
export function post(url: string, headers: Record<string, string>, body: string, timeoutMs = TIMEOUT_MS): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        // Every connection resolves the host anew and refuses private addresses (DNS rebinding).
        lookup: guardedLookup() as never,
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          res.resume();
          return finish({ status });
        }
        let excerpt = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (excerpt.length < ERROR_EXCERPT) excerpt += chunk;
        });
        res.on('end', () => finish({ status, error: excerpt.slice(0, ERROR_EXCERPT) || undefined }));
        res.on('error', () => finish({ status }));
      },
    );
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish({ error: err.message }));
    req.end(body);
  });
}

const ok = (r: PostResult) => r.status !== undefined && r.status >= 200 && r.status < 300;

/** Sends one queued message; true when it is done with (delivered, given up on, or its subscription is gone). */
async function sendOne(record: SQSRecord, now: () => Date): Promise<boolean> {
  const job = JSON.parse(record.body) as WebhookJob;
  const hook: WebhookItem | undefined = await getWebhook(job.lang, job.webhookId);
  if (!hook) {
    logger.info({ message: 'webhook message dropped: its subscription is gone', operation: WEBHOOK_SENDER.id, webhook: job.webhookId, message_id: job.messageId });
    return true;
  }
  const attempt = Math.max(1, Number(record.attributes?.ApproximateReceiveCount) || 1);
  const body = await messageBody(job);
  const refused = await targetError(hook.url);
  const at = now();
  const result: PostResult = refused
    ? { error: `refused: ${hook.url} ${refused}`, durationMs: 0 }
    : await post(
        hook.url,
        {
          'content-type': 'application/json',
          'user-agent': 'Event-Calendar-Webhooks/1',
          ...signedHeaders(hook.secret, job.messageId, Math.floor(at.getTime() / 1000), body),
        },
        body,
      );
  const delivered = ok(result);
  const last = attempt > RETRY_SCHEDULE_S.length;
  const wait = delivered || last ? undefined : RETRY_SCHEDULE_S[attempt - 1]!;
  await recordDelivery(hook.id, {
    messageId: job.messageId,
    type: job.type,
    attempt,
    at: at.toISOString(),
    ...(result.status !== undefined ? { status: result.status } : {}),
    durationMs: result.durationMs,
    ...(result.error ? { error: result.error } : {}),
    outcome: delivered ? 'delivered' : last ? 'failed' : 'retrying',
    ...(wait !== undefined ? { nextAttemptAt: new Date(at.getTime() + wait * 1000).toISOString() } : {}),
    ...(last && !delivered ? { payload: body } : {}),
  });
  logger.info({
    message: 'webhook attempt',
    operation: WEBHOOK_SENDER.id,
    webhook: hook.id,
    message_id: job.messageId,
    type: job.type,
    attempt,
    status: result.status,
    duration_ms: result.durationMs,
    error: result.error,
  });
  publishMetrics(WEBHOOK_SENDER.id, [
    { name: delivered ? METRICS.webhookDelivered : METRICS.webhookFailedAttempts, unit: 'Count', value: 1 },
    ...(last && !delivered ? [{ name: METRICS.webhookGivenUp, unit: 'Count' as const, value: 1 }] : []),
  ]);
  if (delivered) {
    if (hook.failing) await setWebhookFailing(hook.lang, hook.id, false, at);
    return true;
  }
  if (last) {
    await setWebhookFailing(hook.lang, hook.id, true, at);
    return true;
  }
  await webhookQueue().retryAfter(record.receiptHandle, wait!);
  return false;
}

/**
 * The sender's handler: SQS's partial batch response. Messages are sent one after the other, and
 * once one of a group fails the group's later messages of the batch fail too, unsent, so that they
 * come again after it (FIFO order).
 */
export async function sendBatch(event: SQSEvent, now: () => Date = () => new Date()): Promise<SQSBatchResponse> {
  const failures: { itemIdentifier: string }[] = [];
  const held = new Set<string>();
  for (const record of event.Records ?? []) {
    const group = record.attributes?.MessageGroupId ?? record.messageId;
    if (held.has(group)) {
      failures.push({ itemIdentifier: record.messageId });
      continue;
    }
    let done = false;
    try {
      done = await sendOne(record, now);
    } catch (err) {
      logger.error({ message: 'webhook message failed', operation: WEBHOOK_SENDER.id, sqs_message: record.messageId, error: err instanceof Error ? err : new Error(String(err)) });
    }
    if (!done) {
      held.add(group);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
