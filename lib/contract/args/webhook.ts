// The arguments of the webhook subscription routes (lib/logic/webhooks.ts).
import { MAX_PATTERNS, patternError, WEBHOOK_ACTIONS, WEBHOOK_KINDS } from '#lib/domain/webhook-events.js';
import { checked, listItems, str, type Arg, type Args } from '#lib/contract/params.js';

const pathId = {
  schema: str(),
  type: 'string',
  required: true,
  path: true,
  description: "The webhook's id",
} satisfies Arg;

export const webhookArgs = {
  list: {},
  create: {
    url: {
      schema: str({ nonEmpty: true, max: 2000 }),
      type: 'string',
      format: 'uri',
      required: true,
      description: 'Where messages are POSTed: an https URL whose host resolves to public addresses only.',
    },
    events: {
      schema: checked<string[]>((value) => {
        const items = listItems(value);
        if (!items?.length) return 'must list at least one message type pattern.';
        if (items.length > MAX_PATTERNS) return `must contain at most ${MAX_PATTERNS} patterns.`;
        const bad = items.map(patternError).find(Boolean);
        return bad ? `${bad}.` : undefined;
      }),
      type: 'array',
      items: 'string',
      maxItems: MAX_PATTERNS,
      required: true,
      description: `Message types to receive: <kind>.<action>, <kind>.*, *.<action> or * (kinds: ${WEBHOOK_KINDS.join(', ')}; actions: ${WEBHOOK_ACTIONS.join(', ')}).`,
    },
  },
  get: { uuid: pathId },
  delete: { uuid: pathId },
  deliveries: { uuid: pathId },
} satisfies Record<string, Args>;
