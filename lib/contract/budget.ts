// What one API request may cost the table. The store refuses a DynamoDB request past it
// (lib/store/db.ts), and the list filters take no more values than fit in it (lib/contract/args/),
// so that a valid request never meets the store's refusal through its filters alone.
import { POST_STATUSES } from './args/common.js';
import { ApiError } from './errors.js';
import type { Budget } from '#lib/observe/capacity.js';

export const REQUEST_BUDGET: Budget = {
  /** DynamoDB requests sent (the store's own resends count again; the SDK's retries of one send do not). */
  requests: 50,
  /**
   * Read capacity units consumed. The heaviest page: 50 events at DynamoDB's 400 KB item limit read
   * 2,500 units (eventually consistent), and their venues and organizers up to as much again.
   */
  readUnits: 5_000,
};

/**
 * Requests a list page makes beside the index partitions its filter values name: the caller's
 * credentials, the filters' checks, the page's records and their links (a batch read each), the
 * language's STATS item.
 */
const PAGE_RESERVE = 10;

/**
 * The most values of a list filter that reads one index partition per value and status: an
 * editor's list reads every status (five), so that many partitions per value must fit.
 */
const PARTITIONS_PER_VALUE = POST_STATUSES.length;
const PER_VALUE_MAX = Math.floor((REQUEST_BUDGET.requests - PAGE_RESERVE) / PARTITIONS_PER_VALUE);

/** A BatchGetItem takes 100 keys. */
const BATCH_KEYS = 100;

export const LIST_LIMITS = {
  /** GET /events venue, organizer, categories, tags: the first given reads a partition per value and status. */
  eventFilter: PER_VALUE_MAX,
  /** GET /events search: each word is a partition per status, read whole. */
  searchWords: PER_VALUE_MAX,
  /** GET /events include: each id is a whole record read, as many as the longest page shows. */
  include: 50,
  /** GET /categories and /tags include and exclude: one batch read each. */
  termIds: BATCH_KEYS,
} as const;

/**
 * The store's refusal of a request past the budget (lib/store/db.ts). Valid filters stay within it;
 * what else can reach it grows with the data a request asks about (a search of the venues or
 * organizers of a site with thousands of them, an editor's list of a window that tens of thousands
 * of events end in): the client can narrow the request, and retrying
 * it unchanged does not help, so it is a 400. No record was changed: the budget no longer applies
 * once a request changes one (lib/observe/capacity.ts).
 */
export const overBudget = (limit: keyof Budget) =>
  new ApiError(
    400,
    'rest_request_over_budget',
    `This request needs more than the ${limit === 'requests' ? `${REQUEST_BUDGET.requests} database requests` : `${REQUEST_BUDGET.readUnits} read units`} one request may use; no record was changed. Ask for fewer filter values, a shorter date range or an earlier page.`,
    { budget: { requests: REQUEST_BUDGET.requests, read_units: REQUEST_BUDGET.readUnits } },
  );
