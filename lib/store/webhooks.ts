// Webhook subscriptions and their deliveries. A language's subscriptions share one partition
// (`WEBHOOKS#<lang>`, read whole by one Query for every change the stream consumer fans out);
// each subscription's delivery attempts share another (`WEBHOOK#<id>`, newest last by time),
// expiring by TTL. The secret is kept as given (an HMAC key must be available to sign with) and
// shown only once, in the answer that made it.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#lib/runtime/config.js';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { getItem, itemKey, query } from './reads.js';
import { TTL_ATTRIBUTE } from './table.js';

/** The most subscriptions of one language: every change reads them all, and fans out to each. */
export const MAX_WEBHOOKS = 50;
/** How long a delivery attempt is listed. */
export const ATTEMPT_TTL_SECONDS = 7 * 24 * 60 * 60;
/** How long a message given up on is kept, with its payload, for inspection. */
export const FAILED_TTL_SECONDS = 30 * 24 * 60 * 60;
/** The most attempts GET …/deliveries lists (the newest). */
export const MAX_LISTED_ATTEMPTS = 100;

export interface WebhookItem {
  pk: string;
  sk: string;
  id: string;
  lang: Lang;
  url: string;
  events: string[];
  secret: string;
  /** ISO 8601 (UTC). */
  created: string;
  /** Set when a message was given up on after its last retry; cleared by the next delivery that succeeds. */
  failing?: boolean;
  failingSince?: string;
}

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export interface DeliveryItem {
  pk: string;
  sk: string;
  messageId: string;
  type: string;
  /** 1 for the first attempt. */
  attempt: number;
  at: string;
  /** The receiver's HTTP status; absent when there was no answer (timeout, refused address, network error). */
  status?: number;
  durationMs: number;
  error?: string;
  outcome: DeliveryOutcome;
  /** When the next attempt is due (outcome `retrying`). */
  nextAttemptAt?: string;
  /** The message's JSON body, kept when it was given up on. */
  payload?: string;
  [TTL_ATTRIBUTE]: number;
}

const HOOK_PREFIX = 'HOOK#';
const DELIVERY_PREFIX = 'DELIVERY#';

export const webhookKeys = {
  /** One subscription, in its language's partition. */
  webhook: (lang: Lang, id: string) => itemKey<WebhookItem>(`WEBHOOKS#${lang}`, `${HOOK_PREFIX}${id}`),
  /** A delivery attempt: time-ordered in its subscription's partition. */
  delivery: (id: string, at: string, messageId: string, attempt: number) =>
    itemKey<DeliveryItem>(`WEBHOOK#${id}`, `${DELIVERY_PREFIX}${at}#${messageId}#${String(attempt).padStart(3, '0')}`),
};

/** Every subscription of a language, oldest first (ids are time-ordered). */
export async function listWebhooks(lang: Lang): Promise<WebhookItem[]> {
  const { items } = await query<WebhookItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :hook)',
    ExpressionAttributeValues: { ':pk': `WEBHOOKS#${lang}`, ':hook': HOOK_PREFIX },
    ConsistentRead: true,
    Limit: MAX_WEBHOOKS + 1,
  });
  return items;
}

export const getWebhook = (lang: Lang, id: string): Promise<WebhookItem | undefined> => getItem(webhookKeys.webhook(lang, id));

export async function putWebhook(item: Omit<WebhookItem, 'pk' | 'sk'>): Promise<WebhookItem> {
  const stored: WebhookItem = { ...webhookKeys.webhook(item.lang, item.id), ...item };
  await db().send(new PutCommand({ TableName: config().tableName, Item: stored, ConditionExpression: 'attribute_not_exists(pk)' }));
  return stored;
}

/** Deletes a subscription; its attempts expire by TTL. Returns what was deleted, or undefined when there was none. */
export async function deleteWebhook(lang: Lang, id: string): Promise<WebhookItem | undefined> {
  const out = await db().send(new DeleteCommand({ TableName: config().tableName, Key: webhookKeys.webhook(lang, id), ReturnValues: 'ALL_OLD' }));
  return out.Attributes as WebhookItem | undefined;
}

/** Marks a subscription failing (or healthy again); nothing when it was deleted meanwhile. */
export async function setWebhookFailing(lang: Lang, id: string, failing: boolean, now: Date): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: webhookKeys.webhook(lang, id),
        ConditionExpression: 'attribute_exists(pk)',
        ...(failing
          ? {
              UpdateExpression: 'SET failing = :t, failingSince = if_not_exists(failingSince, :now)',
              ExpressionAttributeValues: { ':t': true, ':now': now.toISOString() },
            }
          : { UpdateExpression: 'REMOVE failing, failingSince' }),
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

export async function recordDelivery(webhookId: string, attempt: Omit<DeliveryItem, 'pk' | 'sk' | typeof TTL_ATTRIBUTE>): Promise<void> {
  const ttl = attempt.outcome === 'failed' ? FAILED_TTL_SECONDS : ATTEMPT_TTL_SECONDS;
  const item: DeliveryItem = {
    ...webhookKeys.delivery(webhookId, attempt.at, attempt.messageId, attempt.attempt),
    ...attempt,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(attempt.at) / 1000) + ttl,
  };
  await db().send(new PutCommand({ TableName: config().tableName, Item: item }));
}

/** The newest attempts of a subscription, newest first. */
export async function listDeliveries(webhookId: string, limit = MAX_LISTED_ATTEMPTS): Promise<DeliveryItem[]> {
  const { items } = await query<DeliveryItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)',
    ExpressionAttributeValues: { ':pk': `WEBHOOK#${webhookId}`, ':d': DELIVERY_PREFIX },
    ScanIndexForward: false,
    Limit: limit,
  });
  // TTL deletes lag behind expiry: what has expired is not shown.
  const now = Math.floor(Date.now() / 1000);
  return items.filter((i) => i[TTL_ATTRIBUTE] > now);
}
