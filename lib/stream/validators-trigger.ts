// Moves the table's change counter for every change of a record (lib/store/validators.ts), after
// the triggers that rewrite other records for it (venue and organizer cards in their events,
// links dropped by a trash or delete) and the search index: once the counter has moved, every
// answer that read before those writes has a tag that no longer matches. The request that wrote
// moved the counter already; this bump covers what it could not: the consumer's own rewrites,
// writes made outside a request (imports), and a request that ended between its commit and its
// bump. Delivered again, a change moves the counter again, which only costs a full read or two.
import { VALIDATOR_SHARDS } from '#lib/store/keys.js';
import { bumpValidator } from '#lib/store/validators.js';
import type { Trigger } from './change.js';

export const validatorsTrigger: Trigger = {
  id: 'validators',
  after: ['search', 'cards'],
  wants: () => true,
  // The record's id picks the shard: a burst of changes spreads over them.
  apply: (change) => bumpValidator(change.id % VALIDATOR_SHARDS),
};
