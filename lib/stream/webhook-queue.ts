// The webhook queue: the stream consumer enqueues one message per change and subscription
// (lib/stream/webhook-trigger.ts); the sender receives them (lib/stream/webhook-sender.ts). On AWS
// it is an SQS FIFO queue (WEBHOOK_QUEUE_URL, infra/webhooks.ts), one message group per
// subscription and record, so that a record's messages reach a subscriber in order while other
// records and subscribers go on; the local runtime installs its own queue with the same
// semantics (lib/local/webhook-queue.ts).
import { callAwsJson } from './aws-json.js';

/** One message to enqueue. */
export interface QueuedMessage {
  /** Messages of one group are delivered one after the other, in order (SQS's MessageGroupId). */
  groupId: string;
  /** A message enqueued again with the same id within 5 minutes is dropped (SQS's MessageDeduplicationId). */
  dedupeId: string;
  body: string;
}

export interface WebhookQueue {
  /** Enqueues every message, or throws (some may be enqueued then: the same ids dedupe a retry). */
  send(messages: readonly QueuedMessage[]): Promise<void>;
  /** Makes a received message visible again only after `seconds` (SQS's ChangeMessageVisibility). */
  retryAfter(receiptHandle: string, seconds: number): Promise<void>;
}

/**
 * The sender's waits before each retry, in seconds: the specification's suggested schedule (5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h), then 12 hours (SQS's longest visibility) until about three days
 * have passed: 12 attempts over 77.6 hours.
 */
export const RETRY_SCHEDULE_S: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 43_200, 43_200, 43_200, 43_200, 43_200];

/**
 * Receives before the queue dead-letters a message: the sender's attempts (it gives a message up
 * itself after the last) and two more, for invocations that crashed or timed out.
 */
export const MAX_RECEIVE_COUNT = RETRY_SCHEDULE_S.length + 3;

/** SQS's limits: 10 entries per SendMessageBatch, and at most 12 hours of visibility. */
const BATCH = 10;
export const MAX_VISIBILITY_SECONDS = 12 * 60 * 60;

interface BatchAnswer {
  Successful?: { Id: string }[];
  Failed?: { Id: string; Code?: string; Message?: string }[];
}

export class SqsWebhookQueue implements WebhookQueue {
  constructor(readonly queueUrl: string) {}

  async send(messages: readonly QueuedMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += BATCH) {
      const chunk = messages.slice(i, i + BATCH);
      const out = await callAwsJson<BatchAnswer>('sqs', 'AmazonSQS.SendMessageBatch', {
        QueueUrl: this.queueUrl,
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body, MessageGroupId: m.groupId, MessageDeduplicationId: m.dedupeId })),
      });
      const failed = out.Failed ?? [];
      if (failed.length || (out.Successful ?? []).length !== chunk.length) {
        throw new Error(`SQS refused ${failed.length || chunk.length} webhook message(s): ${failed.map((f) => `${f.Code ?? '?'} ${f.Message ?? ''}`.trim()).join('; ')}`);
      }
    }
  }

  async retryAfter(receiptHandle: string, seconds: number): Promise<void> {
    await callAwsJson('sqs', 'AmazonSQS.ChangeMessageVisibility', {
      QueueUrl: this.queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))),
    });
  }
}

let installed: WebhookQueue | undefined;
let fromEnvironment: SqsWebhookQueue | undefined;

/** Replaces the queue for this process (the local runtime's); undefined restores SQS. */
export function installWebhookQueue(queue: WebhookQueue | undefined): void {
  installed = queue;
}

/** The installed queue, else SQS at WEBHOOK_QUEUE_URL. */
export function webhookQueue(): WebhookQueue {
  if (installed) return installed;
  const url = process.env.WEBHOOK_QUEUE_URL;
  // A missing queue fails the change (retried, then dead-lettered) instead of dropping messages.
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not set and no local webhook queue is installed');
  if (fromEnvironment?.queueUrl !== url) fromEnvironment = new SqsWebhookQueue(url);
  return fromEnvironment;
}
