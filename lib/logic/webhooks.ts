// Webhook subscriptions: an editor subscribes a URL to message types of its language's records,
// and reads the recent delivery attempts. The secret that signs the messages
// (lib/domain/webhook-signature.ts) is shown once, in the answer that made it. Deliveries are the
// stream consumer's and the sender's (lib/stream/webhook-trigger.ts, lib/stream/webhook-sender.ts).
import { randomUUID } from 'node:crypto';
import { ApiError, invalidParam } from '#lib/contract/errors.js';
import { json, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { requireEditor } from '#lib/auth/permissions.js';
import { newSecret } from '#lib/domain/webhook-signature.js';
import { listItems } from '#lib/contract/params.js';
import { apiBase } from '#lib/runtime/config.js';
import { deleteWebhook, getWebhook, listDeliveries, listWebhooks, MAX_WEBHOOKS, putWebhook, type DeliveryItem, type WebhookItem } from '#lib/store/webhooks.js';
import { targetError } from './webhook-targets.js';

const notFound = () => new ApiError(404, 'rest_webhook_not_found', 'No webhook has this id.');

/** The ids this API makes (UUIDs); anything else names no webhook. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function present(ctx: RequestContext, item: WebhookItem): Record<string, unknown> {
  const self = `${apiBase(ctx.lang)}/webhooks/${item.id}`;
  return {
    id: item.id,
    url: item.url,
    events: item.events,
    created: item.created,
    failing: item.failing === true,
    ...(item.failingSince ? { failing_since: item.failingSince } : {}),
    _links: { self: [{ href: self }], deliveries: [{ href: `${self}/deliveries` }] },
  };
}

async function find(ctx: RequestContext): Promise<WebhookItem> {
  const id = ctx.path.uuid ?? '';
  const item = ID.test(id) ? await getWebhook(ctx.lang, id) : undefined;
  if (!item) throw notFound();
  return item;
}

export async function listWebhookSubscriptions(ctx: RequestContext): Promise<Reply> {
  requireEditor(ctx.principal);
  const items = await listWebhooks(ctx.lang);
  return json(
    200,
    items.map((i) => present(ctx, i)),
  );
}

export async function createWebhook(ctx: RequestContext<ArgsOf<'webhooks.create'>>): Promise<Reply> {
  requireEditor(ctx.principal);
  const url = ctx.params.url.trim();
  const why = await targetError(url);
  if (why) throw invalidParam('url', `url ${why}.`);
  const events = [...new Set((listItems(ctx.params.events) ?? []).map(String))];
  if ((await listWebhooks(ctx.lang)).length >= MAX_WEBHOOKS) {
    throw new ApiError(400, 'rest_webhook_limit', `A language has at most ${MAX_WEBHOOKS} webhooks: delete one first.`);
  }
  const secret = newSecret();
  const item = await putWebhook({ id: randomUUID(), lang: ctx.lang, url, events, secret, created: ctx.now.toISOString() });
  const { _links, ...fields } = present(ctx, item);
  // Shown only here: the messages are signed with it.
  return json(201, { ...fields, secret, _links }, { location: `${apiBase(ctx.lang)}/webhooks/${item.id}` });
}

export async function getWebhookSubscription(ctx: RequestContext): Promise<Reply> {
  requireEditor(ctx.principal);
  return json(200, present(ctx, await find(ctx)));
}

export async function deleteWebhookSubscription(ctx: RequestContext): Promise<Reply> {
  requireEditor(ctx.principal);
  const id = ctx.path.uuid ?? '';
  const previous = ID.test(id) ? await deleteWebhook(ctx.lang, id) : undefined;
  if (!previous) throw notFound();
  return json(200, { deleted: true, previous: present(ctx, previous) });
}

function presentAttempt(d: DeliveryItem): Record<string, unknown> {
  return {
    message_id: d.messageId,
    type: d.type,
    attempt: d.attempt,
    time: d.at,
    status: d.status ?? null,
    duration_ms: d.durationMs,
    outcome: d.outcome,
    ...(d.error ? { error: d.error } : {}),
    ...(d.nextAttemptAt ? { next_attempt: d.nextAttemptAt } : {}),
    // A message given up on is kept whole, for inspection and replay.
    ...(d.payload !== undefined ? { payload: JSON.parse(d.payload) as unknown } : {}),
  };
}

export async function listWebhookDeliveries(ctx: RequestContext): Promise<Reply> {
  requireEditor(ctx.principal);
  const hook = await find(ctx);
  return json(200, (await listDeliveries(hook.id)).map(presentAttempt));
}
