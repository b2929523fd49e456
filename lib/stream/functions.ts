// Functions that are not API operations: they have no route, and are invoked by an AWS event
// source. The stack makes them, the local runtime runs them with the same grants, and
// `npm run invoke -- <id> <fixture>` looks them up here as it looks operations up in
// lib/contract/operations.ts.
import { WRITE_ACTIONS, type ScopedGrant, type TableAction } from '#lib/contract/grants.js';

export interface BackgroundFunction {
  /** Stable id, e.g. `stream.consumer`; the function's logical id derives from it. */
  id: string;
  /** The handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  summary: string;
  timeoutSeconds: number;
  /** What the function may do with the table (its IAM policy, enforced locally too). */
  tableActions: readonly TableAction[];
  scopedGrants: readonly ScopedGrant[];
}

/**
 * The table's stream consumer. It writes the feed's markers, and the derived views' triggers read
 * and write records and their indexes: every table action the API's writers have, and batch
 * writes for the search index's plain puts and deletes. Its time covers a batch of 100 changes
 * whose triggers rewrite linked records.
 */
export const STREAM_CONSUMER: BackgroundFunction = {
  id: 'stream.consumer',
  handler: 'functions/stream/consumer.ts',
  summary: 'Runs the triggers of lib/stream/triggers.ts on each change of the table stream',
  timeoutSeconds: 120,
  tableActions: [...WRITE_ACTIONS, 'BatchWriteItem'],
  scopedGrants: [],
};

/**
 * The webhook sender (lib/stream/webhook-sender.ts), fed by the webhook queue: it reads the
 * subscription and the record, and records each attempt. Its time covers a receiver's 10 seconds
 * with the reads and writes around them.
 */
export const WEBHOOK_SENDER: BackgroundFunction = {
  id: 'webhooks.sender',
  handler: 'functions/webhooks/sender.ts',
  summary: 'POSTs the queued webhook messages, signed, to their subscribers; retries with growing waits',
  timeoutSeconds: 30,
  tableActions: WRITE_ACTIONS,
  scopedGrants: [],
};

export const BACKGROUND_FUNCTIONS: readonly BackgroundFunction[] = [STREAM_CONSUMER, WEBHOOK_SENDER];

/** Records per invocation (the event source mapping's batch size; the local poller's too). */
export const STREAM_BATCH_SIZE = 100;
