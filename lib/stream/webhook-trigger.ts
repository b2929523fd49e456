// Webhooks' fan-out: each change of a record becomes one queued message per subscription of its
// language whose patterns match the message's type (lib/domain/webhook-events.ts). The queue
// (lib/stream/webhook-queue.ts) and its sender deliver them: the consumer only enqueues, so a
// slow or dead receiver never holds back the stream, the other triggers or any request.
//
// A message's id is derived from the stream record's id and the subscription's, so a redelivered
// change enqueues the same messages again: the queue drops them within its deduplication window
// (5 minutes), and past it a receiver sees the same `webhook-id` again, which is how the
// specification's receivers dedupe. No marker item is needed for that.
import { createHash } from 'node:crypto';
import { matchesAny, WEBHOOK_ACTION_OF } from '#lib/domain/webhook-events.js';
import { listWebhooks } from '#lib/store/webhooks.js';
import type { Change, ChangeAction, ChangeKind, Trigger } from './change.js';
import { isBookkeepingOnly } from './decode.js';
import { webhookQueue, type QueuedMessage } from './webhook-queue.js';

/** What a queued message carries: the sender reads the record and the subscription when it sends. */
export interface WebhookJob {
  messageId: string;
  webhookId: string;
  lang: Change['lang'];
  kind: ChangeKind;
  id: number;
  action: ChangeAction;
  /** `event.updated`… */
  type: string;
  /** When the change was committed. */
  at: string;
}

/** The message type of a change: `<kind>.<created|updated|deleted>`. */
export const messageType = (change: Pick<Change, 'kind' | 'action'>): string => `${change.kind}.${WEBHOOK_ACTION_OF[change.action]}`;

/** A message's id: the same for every delivery of one change to one subscription. */
export const messageId = (changeId: string, webhookId: string): string => `msg_${createHash('sha256').update(`${changeId}\u0000${webhookId}`).digest('base64url').slice(0, 27)}`;

/** The queue's message group of a record's messages to one subscription: ordered within, independent across. */
export const messageGroup = (job: Pick<WebhookJob, 'webhookId' | 'lang' | 'kind' | 'id'>): string => `${job.webhookId}:${job.lang}:${job.kind}:${job.id}`;

export const webhookTrigger: Trigger = {
  id: 'webhooks',
  // As the change feed: bookkeeping is no change of the record's own.
  wants: (change) => !isBookkeepingOnly(change),
  async apply(change) {
    const type = messageType(change);
    const hooks = (await listWebhooks(change.lang)).filter((h) => matchesAny(h.events, type));
    if (hooks.length === 0) return;
    const messages: QueuedMessage[] = hooks.map((h) => {
      const job: WebhookJob = {
        messageId: messageId(change.eventId, h.id),
        webhookId: h.id,
        lang: change.lang,
        kind: change.kind,
        id: change.id,
        action: change.action,
        type,
        at: change.at,
      };
      return { groupId: messageGroup(job), dedupeId: job.messageId, body: JSON.stringify(job) };
    });
    await webhookQueue().send(messages);
  },
};
