// The responses of TEC's operations: their status codes, derived from the operation table.
import type { Operation } from '#lib/contract/operations.js';
import { pathNames } from '#lib/contract/arg-docs.js';
import { ref, type Json } from './json-schema.js';
import { components } from './components.js';
import { content, fail, ok, shared, VALIDATOR_HEADERS } from './shared-responses.js';
import { wpResponses } from './wp-responses.js';
import { tecV1Responses } from './tec-v1.js';
import { webhookResponses } from './webhook-responses.js';

// --- responses -------------------------------------------------------------------------------------
// Every operation declares the status codes it can answer, each error with WordPress's envelope
// (components.schemas.Error). The codes follow from the operation's properties in the operation
// table, never from a per-operation list:
// - every operation: its success (201 for a POST to a collection, else 200), 400 (its arguments),
//   401 (writes: no or a bad token; reads: a bad token), 500 and 503 (too busy to answer in time);
// - writes: 403 (the caller's role or rights), 409 (a lost race) and 503 (also a write whose
//   outcome could not be learned in time);
// - a path variable ({id}, {slug}): 404, from the route itself for an id that is not a positive
//   integer or a slug with a "/" (rest_no_route), and for events also for an unknown id;
// - records with a post status (their schema has `status`): reads by id or slug 403 (trashed,
//   unpublished or password-protected), and their paged lists 404 beyond the last page;
// - a DELETE that takes `force` moves to the trash first: 410 when the record is already there;
// - every method but GET reads a request body: 413 (too large) and 415 (neither JSON nor a form).

interface ResourceDoc {
  schema: string;
  list: string;
  one: string;
}

export const RESOURCES: Record<string, ResourceDoc> = {
  events: { schema: 'Event', list: 'EventList', one: 'event' },
  venues: { schema: 'Venue', list: 'VenueList', one: 'venue' },
  organizers: { schema: 'Organizer', list: 'OrganizerList', one: 'organizer' },
  categories: { schema: 'Term', list: 'CategoryList', one: 'category' },
  tags: { schema: 'Term', list: 'TagList', one: 'tag' },
};

/** Reads of the change log: no records of their own, but tagged answers, and cursors that expire. */
export const LOGS: Record<string, string> = { changes: 'ChangeList' };

/** What a TEC operation's status codes follow from (see the top of this section). */
export interface OperationTraits {
  write: boolean;
  /** The variable of a path that names one record. */
  pathVar?: string;
  /** GET on a collection. */
  list: boolean;
  /** POST to a collection: 201. */
  create: boolean;
  /** The operation's records have a post status (published, draft, trash…), as their schema shows. */
  postStatus: boolean;
  /** A DELETE with `force`: trashes first, 410 when already trashed. */
  trashes: boolean;
  /** Reads a request body (every method but GET): 413 and 415. */
  body: boolean;
}

export function operationTraits(op: Operation): OperationTraits {
  const r = RESOURCES[op.id.split('.')[0]!];
  const pathVar = pathNames(op.path).at(-1);
  const schemas = components().value.schemas as Record<string, Json>;
  const postStatus = !!r && !!(schemas[r.schema]?.properties as Json | undefined)?.status;
  const onCollection = !!r && pathVar === undefined;
  return {
    write: op.access === 'write',
    ...(pathVar ? { pathVar } : {}),
    list: onCollection && op.methods.includes('GET'),
    create: onCollection && op.methods.includes('POST'),
    postStatus,
    trashes: op.methods.includes('DELETE') && 'force' in op.args,
    body: op.methods.some((m) => m !== 'GET'),
  };
}

export function responses(op: Operation): Record<string, Json> {
  if (op.api === 'wp') return wpResponses(op);
  // TEC's newer namespace: its own codes and shapes, its records as TecV1Event and the like.
  if (op.api === 'tecV1') return { ...edgeRefusals(op), ...tecV1Responses(op, (name) => ref(`TecV1${name}`), ref('Error')) };
  // Webhook subscriptions: this API's own, not TEC's records.
  if (op.id.startsWith('webhooks.')) return webhookResponses(op);
  const t = operationTraits(op);
  const [kind = '', name = ''] = op.id.split('.');
  // Numeric keys: an object lists them in ascending order, whichever part adds them.
  return { ...successes(op, t, kind, name), ...failures(op, t, kind) };
}

type Traits = ReturnType<typeof operationTraits>;

/**
 * What this API's edge answers on tec/v1's routes where TEC's own document lists nothing: a bad
 * token (401, on every route), and a body too large or of another type (413, 415).
 */
function edgeRefusals(op: Operation): Record<string, Json> {
  return {
    401: shared(op.access === 'write' ? 'Unauthorized' : 'BadToken'),
    ...(op.methods.some((m) => m !== 'GET') ? { 413: shared('PayloadTooLarge'), 415: shared('UnsupportedMediaType') } : {}),
  };
}

/** The answers of an operation that works, and its 304. */
function successes(op: Operation, t: Traits, kind: string, name: string): Record<string, Json> {
  const r = RESOURCES[kind];
  const out: Record<string, Json> = {};

  // Success.
  if (LOGS[kind]) {
    out[200] = { ...ok('The changes after the cursor; without one, none and a cursor for now', ref(LOGS[kind])), headers: VALIDATOR_HEADERS };
    out[304] = { description: 'The If-None-Match tag is the current one: no body', headers: VALIDATOR_HEADERS };
  } else if (!r) {
    out[200] =
      name === 'index'
        ? ok('The routes of this namespace and their arguments', ref('NamespaceIndex'))
        : name === 'site'
          ? ok("WordPress's REST index: the site, its namespaces, and every route this API serves with its arguments", ref('RestIndex'))
          : ok('This OpenAPI document', { type: 'object' });
  } else if (t.list) {
    out[200] = {
      description: `A page of ${kind}`,
      headers: { 'X-TEC-Total': { $ref: '#/components/headers/X-TEC-Total' }, 'X-TEC-TotalPages': { $ref: '#/components/headers/X-TEC-TotalPages' }, ...VALIDATOR_HEADERS },
      content: content(ref(r.list)),
    };
  } else if (t.create) {
    out[201] = ok(`The created ${r.one}`, ref(r.schema));
  } else if (op.methods.includes('DELETE')) {
    out[200] = ok(
      t.trashes ? `The ${r.one} as trashed (status "trash"), or as it was when force=true deleted it permanently` : `The ${r.one} as it was before it was deleted`,
      ref(r.schema),
    );
  } else if (t.write) {
    out[200] = ok(`The updated ${r.one}`, ref(r.schema));
  } else {
    out[200] = ok(`The ${r.one}${t.postStatus ? ', with json_ld' : ''}`, ref(r.schema));
  }

  // `ical=1` answers with a calendar file instead (docs/calendar-feeds.md).
  if ('ical' in op.args && out[200]) {
    const success = out[200] as Json;
    out[200] = {
      ...success,
      description: `${String(success.description)}; with ical=1, an iCalendar file (RFC 5545)`,
      content: { ...(success.content as Json), 'text/calendar': { schema: { type: 'string' } } },
    };
  }

  // Every record and page answer carries its tag (writes: the tag of the record they show).
  for (const status of [200, 201]) {
    if (r && out[status] && !(t.write && op.methods.includes('DELETE')))
      out[status] = { ...out[status], headers: { ...((out[status] as Json).headers as Json | undefined), ...VALIDATOR_HEADERS } };
  }
  if (r && !t.write) out[304] = { description: 'The If-None-Match tag is the current one: no body', headers: VALIDATOR_HEADERS };
  return out;
}

/** The errors an operation may answer. */
function failures(op: Operation, t: Traits, kind: string): Record<string, Json> {
  const r = RESOURCES[kind];
  const out: Record<string, Json> = {};
  // 400: every operation has arguments; writes also check links, dates and their JSON.
  const one = r?.one ?? 'record';
  const unknownRecord = t.pathVar
    ? kind === 'events' && t.pathVar === 'id'
      ? ', the id belongs to a record that is not an event (rest-invalid-event-id)'
      : `, no ${one} has this ${t.pathVar} (rest_invalid_param)`
    : '';
  out[400] = fail(
    t.write
      ? `A required parameter is missing (rest_missing_callback_param), a parameter is invalid (rest_invalid_param, term_exists, invalid-linked-post-id, could-not-create-venue…)${unknownRecord}, or the body is not valid JSON (rest_invalid_json)`
      : `A parameter is invalid (rest_invalid_param${LOGS[kind] ? ', also a since that is no cursor' : ''})${unknownRecord}`,
  );
  out[401] = shared(t.write ? 'Unauthorized' : 'BadToken');

  if (t.write) {
    const verb = op.methods.includes('DELETE') ? 'delete' : t.create ? 'create' : 'edit';
    out[403] = fail(`The caller's role or rights may not ${verb} this ${one}${t.trashes ? ', or force=true without the editor role' : ''} (rest_forbidden)`);
  } else if (t.pathVar && t.postStatus) {
    out[403] = fail(
      kind === 'events'
        ? "The event is trashed (event-no-longer-available), not published and not the caller's (event-not-accessible), or protected by a password that was not given, without context=edit by one who may edit it (event-password-protected)"
        : `The ${one} is trashed or not published and not the caller's (${one}-not-accessible)`,
    );
  }

  if (t.pathVar) {
    const noRoute = t.pathVar === 'id' ? 'the id is not a positive integer' : 'the slug contains a "/"';
    out[404] = fail(`${kind === 'events' && t.pathVar === 'id' ? 'No event has this id (rest-event-not-found), or ' : 'No route: '}${noRoute} (rest_no_route)`);
  } else if (t.list && t.postStatus) {
    out[404] = fail(`The page is beyond the last one (${one}-archive-page-not-found)`);
  }

  if (t.write)
    out[409] = op.idempotent
      ? fail(
          'Another request changed the same records at the same time (rest_conflict), or the first request with this Idempotency-Key is still running (rest_idempotency_in_progress); nothing was written and the request may be retried',
        )
      : shared('Conflict');
  if (t.write && t.pathVar && r) out[412] = fail('If-Match names another revision of the record: it was changed since it was read; nothing was written (rest_precondition_failed)');
  if (op.idempotent) out[422] = fail('This Idempotency-Key was used for another request by the same caller within 24 hours (rest_idempotency_key_reused)');
  if (LOGS[kind]) out[410] = fail('The cursor is older than the change log keeps, or was not made by this API for this language: list everything again (rest_cursor_expired)');
  if (t.trashes) out[410] = fail(`The ${one} is already in the trash (${one}-is-in-trash)`);
  if (t.body) {
    out[413] = shared('PayloadTooLarge');
    out[415] = shared('UnsupportedMediaType');
  }
  out[500] = shared('InternalError');
  out[503] = shared(t.write ? 'OutcomeUnknown' : 'Busy');
  return out;
}
