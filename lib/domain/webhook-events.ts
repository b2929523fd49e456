// What a webhook subscribes to: message types `<kind>.<action>`, and the patterns a subscription
// lists (`event.created`, `venue.*`, `*.deleted`, `*`).
//
// Actions are those of a mirror: `created`, `updated`, `deleted`. A record's own five changes map
// onto them as a copy of the calendar sees them: a trash is a `deleted` (the record leaves every
// public list; the message says `"trashed": true`), a restore a `created` (it comes back, with
// `"restored": true`). Changes of bookkeeping only (a term's count after an event write, an event's
// copy of its venue's card) send nothing: the records' own fields did not change.
export const WEBHOOK_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export const WEBHOOK_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

/** The most patterns one subscription lists. */
export const MAX_PATTERNS = 20;

const PATTERN = new RegExp(`^(?:\\*|(?:\\*|${WEBHOOK_KINDS.join('|')})\\.(?:\\*|${WEBHOOK_ACTIONS.join('|')}))$`);

/** Why a pattern is not one; undefined when it is. */
export function patternError(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'must be a string';
  if (PATTERN.test(pattern)) return undefined;
  return `"${pattern.slice(0, 60)}" is not <kind>.<action>, <kind>.*, *.<action> or * (kinds: ${WEBHOOK_KINDS.join(', ')}; actions: ${WEBHOOK_ACTIONS.join(', ')})`;
}

/** Whether a message type matches one of the patterns. */
export function matchesAny(patterns: readonly string[], type: string): boolean {
  const [kind, action] = type.split('.');
  return patterns.some((p) => {
    if (p === '*') return true;
    const [pk, pa] = p.split('.');
    return (pk === '*' || pk === kind) && (pa === '*' || pa === action);
  });
}

/** A record change's action (`create`, `update`, `trash`, `restore`, `delete`) as a webhook's. */
export const WEBHOOK_ACTION_OF: Record<'create' | 'update' | 'trash' | 'restore' | 'delete', WebhookAction> = {
  create: 'created',
  update: 'updated',
  trash: 'deleted',
  restore: 'created',
  delete: 'deleted',
};
