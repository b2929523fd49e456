// The trigger table: every consumer of the table's changes, one row each. The stream consumer
// (lib/stream/consume.ts) hands every decoded change to each trigger that wants it; a new derived
// view is one more row here (and its grants in STREAM_CONSUMER, lib/stream/functions.ts).
import type { Trigger } from './change.js';
import { cardsTrigger } from './cards-trigger.js';
import { changeLogTrigger } from './change-log-trigger.js';
import { feedTrigger } from './feed-trigger.js';
import { searchTrigger } from './search-trigger.js';
import { openSeriesTrigger, seriesEditTrigger, seriesEndTrigger, seriesRulesTrigger, seriesSplitTrigger, seriesTrigger } from './series-trigger.js';
import { validatorsTrigger } from './validators-trigger.js';
import { webhookTrigger } from './webhook-trigger.js';

export const TRIGGERS: readonly Trigger[] = [
  // The change feed on the event bus.
  feedTrigger,
  // The change log that `GET /changes` reads.
  changeLogTrigger,
  // The search index: one list per word of every listed event.
  searchTrigger,
  // Venue and organizer cards in their events, and links dropped by a trash or delete.
  cardsTrigger,
  // The later occurrences of recurring events, a chunk per change of a series' first event.
  seriesTrigger,
  // The events of a series a delete by scope ended, past what the request had time for.
  seriesEndTrigger,
  // The events of a series an edit by scope all did not reach in its request.
  seriesEditTrigger,
  // The events of a series an edit by scope following moves to the series it split off.
  seriesSplitTrigger,
  // The events of a series given new rules by an edit by scope all: kept with them, or trashed.
  seriesRulesTrigger,
  // The list of series without an end, whose horizon the daily schedule moves (SERIES_HORIZON).
  openSeriesTrigger,
  // The change counter that entity tags are made from, once the rewrites above are done.
  validatorsTrigger,
  // Webhooks: one queued message per change and matching subscription (lib/stream/webhook-sender.ts sends them).
  webhookTrigger,
];

const extra: Trigger[] = [];

/**
 * Adds a trigger after the table's for this process, until the returned function is called
 * (tests: a trigger that fails on purpose, run by the real consumer).
 */
export function registerTrigger(trigger: Trigger): () => void {
  if ([...TRIGGERS, ...extra].some((t) => t.id === trigger.id)) throw new Error(`A trigger "${trigger.id}" is registered already.`);
  extra.push(trigger);
  return () => {
    const at = extra.indexOf(trigger);
    if (at >= 0) extra.splice(at, 1);
  };
}

/** The triggers the consumer runs: the table's, then the registered ones. */
export function activeTriggers(): readonly Trigger[] {
  return extra.length ? [...TRIGGERS, ...extra] : TRIGGERS;
}
