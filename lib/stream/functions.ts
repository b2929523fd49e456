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
  /** How often a schedule invokes it (an EventBridge rate expression); unset: an event source does. */
  schedule?: `rate(${string})`;
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

/**
 * The daily move of the horizon of series without an end (lib/logic/series-horizon.ts): it reads
 * the list of such series and each first event, and records a new total with a conditional
 * UpdateItem (or drops a series from the list). Its time covers some thousands of series; the
 * rest, in another order, the next day.
 */
export const SERIES_HORIZON: BackgroundFunction = {
  id: 'series.horizon',
  handler: 'functions/series/horizon.ts',
  summary: 'Moves the horizon of recurring series without an end forward, once a day',
  timeoutSeconds: 300,
  tableActions: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem'],
  scopedGrants: [],
  schedule: 'rate(1 day)',
};

export const BACKGROUND_FUNCTIONS: readonly BackgroundFunction[] = [STREAM_CONSUMER, WEBHOOK_SENDER, SERIES_HORIZON];

/** Records per invocation (the event source mapping's batch size; the local poller's too). */
export const STREAM_BATCH_SIZE = 100;

/** The functions a schedule invokes (infra/schedules.ts; locally lib/local/schedules.ts). */
export const SCHEDULED_FUNCTIONS = BACKGROUND_FUNCTIONS.filter((f): f is BackgroundFunction & Required<Pick<BackgroundFunction, 'schedule'>> => f.schedule !== undefined);

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The period of an EventBridge rate expression (`rate(1 day)`, `rate(5 minutes)`), in ms. */
export function rateMs(schedule: string): number {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(schedule);
  if (!m || Number(m[1]) < 1 || (Number(m[1]) === 1) !== !schedule.endsWith('s)')) throw new Error(`Not an EventBridge rate expression: ${schedule}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}
