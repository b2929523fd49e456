// The local runtime's webhook queue: an in-process stand-in for the SQS FIFO queue and its event
// source mapping (infra/webhooks.ts), running the real sender (WEBHOOK_SENDER) with its grants and
// timeout, as Lambda does:
// - message groups: a group's next message is received only once the one before it is deleted,
//   while other groups go on, up to `concurrency` invocations at once: by default 1,000, as Lambda
//   scales a FIFO queue's consumer to its active message groups up to the account's default
//   concurrency (a hanging receiver holds its own groups' invocations, never the rest);
// - a received message is invisible for the queue's visibility timeout, or for what the sender
//   sets (ChangeMessageVisibility, its growing waits); it comes back after that unless deleted;
// - a message the sender does not report failed is deleted; ApproximateReceiveCount counts the
//   receives, and past `maxReceiveCount` a message goes to the dead-letter list;
// - a dedupe id seen within 5 minutes is dropped, as SQS's deduplication window does.
// `timeScale` shortens the sender's retry waits (tests: 0.001 turns the 5 s wait into 5 ms, three
// days into four minutes); `npm start` keeps real time.
import { randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withLogWriter, type LogWriter } from '#lib/observe/logger.js';
import { WEBHOOK_SENDER } from '#lib/stream/functions.js';
import { installWebhookQueue, MAX_RECEIVE_COUNT, type QueuedMessage, type WebhookQueue } from '#lib/stream/webhook-queue.js';
import { loadHandler } from './gateway.js';
import { runFunction } from './stream.js';

export type SenderHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

export interface LocalWebhookQueueOptions {
  /** Multiplies the sender's retry waits. Default 1. */
  timeScale?: number;
  /** The queue's visibility timeout in seconds (default 60, as the stack's). */
  visibilityTimeoutS?: number;
  /** Receives before a message is dead-lettered (default: the sender's retries and two more, as the stack's). */
  maxReceiveCount?: number;
  /** Invocations at once (default 1,000: Lambda's default account concurrency). */
  concurrency?: number;
  /** Pause between polls while messages wait or are in flight, default 20 ms (an empty queue sleeps until a send). */
  idleMs?: number;
  handler?: SenderHandler;
  logWriter?: LogWriter;
  log?: (line: string) => void;
}

interface Stored {
  messageId: string;
  message: QueuedMessage;
  sentAt: number;
  receiveCount: number;
  visibleAt: number;
  receipt?: string;
}

const DEDUPE_WINDOW_MS = 5 * 60 * 1000;

export class LocalWebhookQueue implements WebhookQueue {
  readonly deadLetters: Stored[] = [];
  /** Messages enqueued, in all (dedupes excluded). */
  enqueued = 0;
  private groups = new Map<string, Stored[]>();
  private seen = new Map<string, number>();
  private running = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<void>>();
  private readonly scale: number;

  constructor(
    private readonly handler: SenderHandler,
    private readonly opts: LocalWebhookQueueOptions = {},
  ) {
    this.scale = opts.timeScale ?? 1;
    this.tick();
  }

  async send(messages: readonly QueuedMessage[]): Promise<void> {
    const now = Date.now();
    for (const [id, at] of this.seen) if (now - at > DEDUPE_WINDOW_MS) this.seen.delete(id);
    for (const message of messages) {
      if (this.seen.has(message.dedupeId)) continue;
      this.seen.set(message.dedupeId, now);
      const group = this.groups.get(message.groupId) ?? [];
      group.push({ messageId: randomUUID(), message, sentAt: now, receiveCount: 0, visibleAt: now });
      this.groups.set(message.groupId, group);
      this.enqueued++;
    }
    // An empty queue polls nothing: a send wakes it.
    if (this.timer === undefined && this.groups.size > 0) this.timer = setTimeout(() => this.tick(), 0);
  }

  async retryAfter(receiptHandle: string, seconds: number): Promise<void> {
    for (const group of this.groups.values()) {
      const head = group[0];
      if (head?.receipt === receiptHandle) {
        head.visibleAt = Date.now() + seconds * 1000 * this.scale;
        return;
      }
    }
    throw new Error('ReceiptHandleIsInvalid: the message is no longer in flight');
  }

  /** Messages waiting or in flight. */
  get size(): number {
    let n = 0;
    for (const group of this.groups.values()) n += group.length;
    return n;
  }

  /** Until the queue is empty (every message deleted or dead-lettered). */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.size > 0) {
      if (Date.now() > deadline) throw new Error(`The webhook queue still holds ${this.size} message(s).`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight]);
  }

  private tick(): void {
    this.timer = undefined;
    if (this.stopped) return;
    this.poll();
    if (this.groups.size > 0 && this.timer === undefined) this.timer = setTimeout(() => this.tick(), this.opts.idleMs ?? 20);
  }

  /** Receives the head of every group that is due, while invocations are free. */
  private poll(): void {
    const now = Date.now();
    const limit = this.opts.concurrency ?? 1_000;
    const maxReceives = this.opts.maxReceiveCount ?? MAX_RECEIVE_COUNT;
    for (const [groupId, group] of this.groups) {
      if (this.running >= limit) return;
      const head = group[0];
      if (!head) {
        this.groups.delete(groupId);
        continue;
      }
      if (head.visibleAt > now) continue;
      if (head.receiveCount >= maxReceives) {
        group.shift();
        this.deadLetters.push(head);
        this.opts.log?.(`[webhooks] dead letter: ${head.message.body.slice(0, 200)}`);
        continue;
      }
      head.receiveCount++;
      head.receipt = randomUUID();
      // Not scaled: it must outlast the sender's timeout, as the stack's does.
      head.visibleAt = now + (this.opts.visibilityTimeoutS ?? 60) * 1000;
      const run = this.invoke(group, head, head.receipt);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    }
  }

  private async invoke(group: Stored[], head: Stored, receipt: string): Promise<void> {
    this.running++;
    const record: SQSRecord = {
      messageId: head.messageId,
      receiptHandle: receipt,
      body: head.message.body,
      attributes: {
        ApproximateReceiveCount: String(head.receiveCount),
        SentTimestamp: String(head.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(head.sentAt),
        MessageGroupId: head.message.groupId,
        MessageDeduplicationId: head.message.dedupeId,
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:webhooks.fifo',
      awsRegion: process.env.AWS_REGION || 'us-east-1',
    };
    try {
      const run = () => runFunction(WEBHOOK_SENDER, this.handler, { Records: [record] });
      const answer = this.opts.logWriter ? await withLogWriter(this.opts.logWriter, run) : await run();
      const failed = (answer?.batchItemFailures ?? []).some((f) => f.itemIdentifier === head.messageId);
      // Deleted only by the receive that still holds it (a late answer after its visibility ran out holds nothing).
      if (!failed && head.receipt === receipt && group[0] === head) group.shift();
    } catch (err) {
      // A failed invocation leaves the message to come back after its visibility timeout.
      this.opts.log?.(`[webhooks] ${WEBHOOK_SENDER.id} failed: ${(err as Error)?.message ?? err}`);
    } finally {
      this.running--;
    }
  }
}

/** Starts the local webhook queue with the sender's handler and installs it for this process. */
export async function startLocalWebhookQueue(opts: LocalWebhookQueueOptions = {}): Promise<LocalWebhookQueue> {
  const handler = opts.handler ?? ((await loadHandler(WEBHOOK_SENDER.handler)) as unknown as SenderHandler);
  const queue = new LocalWebhookQueue(handler, opts);
  installWebhookQueue(queue);
  return queue;
}
