// Typed errors, mapped to WordPress's `{code, message, data: {status, ...}}` envelope in one place
// (the pipeline's error handler).

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; [key: string]: unknown };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

export const noRoute = () => new ApiError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** `params` maps each bad parameter to why it is bad; `details` carries nested error objects. */
export const invalidParams = (params: Record<string, string>, details: Record<string, unknown> = {}) =>
  new ApiError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {
    params,
    // WordPress emits an empty JSON array when no detail was recorded.
    details: Object.keys(details).length ? details : [],
  });

export const invalidParam = (name: string, why = 'Invalid parameter.') => invalidParams({ [name]: why });

export const missingParams = (names: string[]) => new ApiError(400, 'rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, { params: names });

export const invalidJson = (why: string) => new ApiError(400, 'rest_invalid_json', 'Invalid JSON body passed.', { details: why });

export const bodyTooLarge = (limit: number) => new ApiError(413, 'rest_payload_too_large', `The request body is larger than the ${limit} bytes this API accepts.`);

export const forbidden = (loggedIn: boolean, message = 'Sorry, you are not allowed to do that.') => new ApiError(loggedIn ? 403 : 401, 'rest_forbidden', message);

export const unauthorized = (message: string) => new ApiError(401, 'rest_forbidden', message);

/** TEC's own codes (docs/tec-behaviour.md §7.1). */
export const tec = {
  eventNotFound: (id: number) => new ApiError(404, 'rest-event-not-found', `Event with ID ${id} does not exist.`),
  invalidEventId: () => new ApiError(400, 'rest-invalid-event-id', 'The specified ID is not a valid event.'),
  eventTrashed: () => new ApiError(403, 'event-no-longer-available', 'This event is no longer available'),
  passwordProtected: () => new ApiError(403, 'event-password-protected', 'The requested event is not accessible without a password'),
  notAccessible: (kind: 'event' | 'venue' | 'organizer') => new ApiError(403, `${kind}-not-accessible`, `The requested ${kind} is not accessible`),
  inTrash: (kind: 'event' | 'venue' | 'organizer') => new ApiError(410, `${kind}-is-in-trash`, `The ${kind} is already trashed`),
  archivePageNotFound: (kind: 'event' | 'venue' | 'organizer') => new ApiError(404, `${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`),
  invalidLinkedPost: () => new ApiError(400, 'invalid-linked-post-id', 'The provided linked post ID is not valid'),
  couldNotCreate: (kind: 'venue' | 'organizer', why: string) =>
    new ApiError(400, `could-not-create-${kind}`, `The ${kind} could not be created from the provided data`, {
      details: why,
    }),
  /** WordPress words it by whether the taxonomy is hierarchical. */
  termExists: (termId: number, hierarchical: boolean) =>
    new ApiError(
      400,
      'term_exists',
      hierarchical ? 'A term with the name provided already exists with this parent.' : 'A term with the name provided already exists in this taxonomy.',
      { term_id: termId },
    ),
  notHierarchical: () => new ApiError(400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.'),
};

/** A write that lost a race (a slug or counter taken in between) and may be retried. */
export class ConflictError extends Error {}

/**
 * A write that kept meeting other writes on an item it shares with them (a count bucket, a
 * linked record) without any of them changing what it read: load, not a conflict, so the client
 * is told the server was busy (503) rather than that the record changed (409).
 */
export class Contention extends ConflictError {}

/**
 * A write was sent and its answer did not come back in time (or the request failed after a write
 * landed): it may or may not be stored. Never retried within the request; the client is told so
 * (503 `rest_outcome_unknown`, lib/http/pipeline.ts) and how to find out.
 */
export class OutcomeUnknown extends Error {}

/**
 * The request could not be carried out in time: the server or the database is overloaded, or the
 * function's timeout came first. Nothing of it was written (lib/http/pipeline.ts answers an
 * unknown outcome instead when a write may have landed), so the client may send it again.
 */
export class Busy extends Error {}

/** Seconds a client waits before sending a request again that found the server too busy. */
export const BUSY_RETRY_AFTER_S = 1;

/** The answer to a request the server was too busy to carry out. */
export const busy = () =>
  new ApiError(503, 'rest_busy', 'The server was too busy to complete the request in time; nothing was written. Send it again after the Retry-After seconds.', {
    retry_after: BUSY_RETRY_AFTER_S,
  });

/** Seconds a client waits before asking again after an unknown outcome. */
export const OUTCOME_RETRY_AFTER_S = 2;

/** The answer to an unknown outcome, worded for a create (retried with its key) or an update (re-read first). */
export const outcomeUnknown = (create: boolean) =>
  new ApiError(
    503,
    'rest_outcome_unknown',
    create
      ? 'The server could not tell in time whether the record was created. Send the same request again with the same Idempotency-Key: it answers with the record if it was created, and creates it once if not.'
      : 'The server could not tell in time whether the change was saved. Read the record again, and if the change is still wanted send it with If-Match set to the ETag just read.',
    { retry_after: OUTCOME_RETRY_AFTER_S },
  );
