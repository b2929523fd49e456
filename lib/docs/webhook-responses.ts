// The answers of the webhook subscription routes (lib/logic/webhooks.ts): not TEC's records, so
// their shapes are their own, declared here, and their errors are those of any editors-only route.
import type { Operation } from '#lib/contract/operations.js';
import { WEBHOOK_ACTIONS, WEBHOOK_KINDS } from '#lib/domain/webhook-events.js';
import type { Json } from './json-schema.js';
import { fail, ok, shared } from './shared-responses.js';

const link: Json = { type: 'array', items: { type: 'object', properties: { href: { type: 'string', format: 'uri' } }, required: ['href'] } };

const WEBHOOK: Json = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid', description: "The webhook's id" },
    url: { type: 'string', format: 'uri', description: 'Where messages are POSTed' },
    events: { type: 'array', items: { type: 'string' }, description: `Message type patterns (kinds: ${WEBHOOK_KINDS.join(', ')}; actions: ${WEBHOOK_ACTIONS.join(', ')})` },
    created: { type: 'string', format: 'date-time' },
    failing: { type: 'boolean', description: 'A message was given up on after three days of retries; cleared by the next delivery that succeeds' },
    failing_since: { type: 'string', format: 'date-time' },
    _links: { type: 'object', properties: { self: link, deliveries: link } },
  },
  required: ['id', 'url', 'events', 'created', 'failing', '_links'],
};

const CREATED: Json = {
  ...WEBHOOK,
  properties: {
    ...(WEBHOOK.properties as Json),
    secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret (Standard Webhooks): shown only in this answer' },
  },
  required: [...(WEBHOOK.required as string[]), 'secret'],
};

const DELIVERY: Json = {
  type: 'object',
  properties: {
    message_id: { type: 'string', description: 'The `webhook-id` header: the same on every attempt of one message' },
    type: { type: 'string', description: '`<kind>.<action>`, e.g. event.updated' },
    attempt: { type: 'integer', minimum: 1 },
    time: { type: 'string', format: 'date-time' },
    status: { type: ['integer', 'null'], description: "The receiver's HTTP status; null without an answer (timeout, refused address, network error)" },
    duration_ms: { type: 'integer' },
    outcome: { type: 'string', enum: ['delivered', 'retrying', 'failed'] },
    error: { type: 'string' },
    next_attempt: { type: 'string', format: 'date-time' },
    payload: { type: 'object', description: 'The message, kept when it was given up on' },
  },
  required: ['message_id', 'type', 'attempt', 'time', 'status', 'duration_ms', 'outcome'],
};

/** The status codes and bodies of one webhook route. */
export function webhookResponses(op: Operation): Record<string, Json> {
  const name = op.id.split('.')[1];
  const write = op.access === 'write';
  const success: Record<string, Json> =
    name === 'create'
      ? { 201: ok('The webhook, with its secret (shown only here)', CREATED) }
      : name === 'list'
        ? { 200: ok("The language's webhooks, oldest first", { type: 'array', items: WEBHOOK }) }
        : name === 'deliveries'
          ? { 200: ok('The latest delivery attempts (at most 100, kept 7 days; given-up messages 30 days), newest first', { type: 'array', items: DELIVERY }) }
          : name === 'delete'
            ? { 200: ok('The webhook as it was', { type: 'object', properties: { deleted: { type: 'boolean' }, previous: WEBHOOK }, required: ['deleted', 'previous'] }) }
            : { 200: ok('The webhook (without its secret)', WEBHOOK) };
  return {
    ...success,
    400: fail(
      name === 'create'
        ? 'A required parameter is missing (rest_missing_callback_param), the url is not https or does not resolve to public addresses only, or a pattern names no kind or action (rest_invalid_param), or the language has 50 webhooks already (rest_webhook_limit)'
        : 'A parameter is invalid (rest_invalid_param)',
    ),
    401: shared(write ? 'Unauthorized' : 'BadToken'),
    403: fail('The caller is not an editor (rest_forbidden)'),
    ...(op.path.includes('{uuid}') ? { 404: fail('No webhook has this id (rest_webhook_not_found)') } : {}),
    ...(write ? { 409: shared('Conflict') } : {}),
    ...(op.methods.some((m) => m !== 'GET') ? { 413: shared('PayloadTooLarge'), 415: shared('UnsupportedMediaType') } : {}),
    500: shared('InternalError'),
    503: shared(write ? 'OutcomeUnknown' : 'Busy'),
  };
}
