// The response schemas that are small fixed shapes: list envelopes, WordPress's namespace index and
// its error envelope.
import type { Method } from '#lib/contract/operations.js';
import { ref, type Json } from './json-schema.js';

// --- fixed shapes: list envelopes, namespace index, errors ---------------------------------------

export const url: Json = { type: 'string', format: 'uri' };

/** Events, venues and organizers (lib/logic/lists.ts `envelope`): the records first. */
export function postList(key: string, item: string): Json {
  return {
    type: 'object',
    description: `A page of ${key}. The X-TEC-Total and X-TEC-TotalPages headers repeat total and total_pages.`,
    properties: {
      [key]: { type: 'array', items: ref(item), description: `The ${key} of this page` },
      // TEC writes this query's values as they are (a space stays a space): not always a valid URI.
      rest_url: { type: 'string', description: 'This page, with the effective query, its values as TEC writes them (unencoded but for % & # +)' },
      next_rest_url: { ...url, description: 'The next page; only when there is one' },
      previous_rest_url: { ...url, description: 'The previous page; only on pages after the first that have results' },
      total: { type: 'integer', minimum: 0, description: `The number of matching ${key}` },
      total_pages: { type: 'integer', minimum: 0, description: 'The number of pages; 0 when nothing matches' },
    },
    required: [key, 'rest_url', 'total', 'total_pages'],
  };
}

/** Categories and tags (lib/logic/lists.ts `listTerms`): WordPress's order, the terms after the counts. */
export function termList(key: string): Json {
  return {
    type: 'object',
    description: `A page of ${key}. The X-TEC-Total and X-TEC-TotalPages headers repeat total and total_pages.`,
    properties: {
      rest_url: { ...url, description: 'The collection URL, without a query' },
      total: { type: 'integer', minimum: 0, description: `The number of matching ${key}` },
      total_pages: { type: 'integer', minimum: 0, description: 'The number of pages; 0 when nothing matches' },
      [key]: { type: 'array', items: ref('Term'), description: `The ${key} of this page` },
      next_rest_url: { ...url, description: 'The next page (only the page number is carried over); only when there is one' },
      previous_rest_url: { ...url, description: 'The previous page; only after the first page' },
    },
    required: ['rest_url', 'total', 'total_pages', key],
  };
}

/** GET /changes (lib/logic/changes.ts): a page of the change log. */
export const changeListSchema: Json = {
  type: 'object',
  description: 'The changes after the cursor, in the order of the change log, each record once, with its latest change; `more`: call again with `next` at once.',
  properties: {
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['event', 'venue', 'organizer', 'category', 'tag'] },
          id: { type: 'integer', minimum: 1 },
          action: {
            type: 'string',
            enum: ['create', 'update', 'trash', 'restore', 'delete'],
            description: 'The latest change; `delete` also when the record is no longer visible to the caller',
          },
          modified_utc: { type: 'string', description: 'When the change was committed, in UTC (Y-m-d H:i:s)' },
          record: {
            anyOf: [ref('Event'), ref('Venue'), ref('Organizer'), ref('Term')],
            description: 'The record as GET by id answers it to this caller now; absent when it is gone, trashed or hidden from the caller',
          },
        },
        required: ['type', 'id', 'action', 'modified_utc'],
      },
    },
    next: { type: 'string', description: 'The cursor to send as `since` next' },
    more: { type: 'boolean', description: 'Whether more changes follow at once' },
  },
  required: ['changes', 'next', 'more'],
};

export const links: Json = { type: 'array', items: { type: 'object', properties: { href: url }, required: ['href'] } };
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const methodList: Json = { type: 'array', items: { type: 'string', enum: METHODS } };

/** WordPress's namespace index (docs/tec-behaviour.md §9.2), as lib/logic/root.ts builds it. */
export const namespaceIndexSchema: Json = {
  type: 'object',
  description: "WordPress's description of the namespace: every route with its methods and arguments.",
  properties: {
    namespace: { type: 'string', description: 'The namespace, e.g. tribe/events/v1' },
    routes: {
      type: 'object',
      description: 'The routes, keyed by their WordPress pattern, e.g. /tribe/events/v1/events/(?P<id>\\d+)',
      additionalProperties: {
        type: 'object',
        properties: {
          namespace: { type: 'string' },
          methods: methodList,
          endpoints: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                methods: methodList,
                args: {
                  description: 'The arguments by name; [] when there are none',
                  anyOf: [
                    {
                      type: 'object',
                      additionalProperties: {
                        type: 'object',
                        properties: {
                          default: {},
                          description: { type: 'string' },
                          type: { type: 'string' },
                          items: { type: 'object' },
                          format: { type: 'string' },
                          enum: { type: 'array' },
                          required: { type: 'boolean' },
                        },
                        required: ['required'],
                      },
                    },
                    { type: 'array', maxItems: 0 },
                  ],
                },
              },
              required: ['methods', 'args'],
            },
          },
          _links: { type: 'object', properties: { self: links }, required: ['self'], description: 'Only on routes without path variables' },
        },
        required: ['namespace', 'methods', 'endpoints'],
      },
    },
    _links: { type: 'object', properties: { up: links }, required: ['up'] },
  },
  required: ['namespace', 'routes', '_links'],
};

const routesSchema = (namespaceIndexSchema.properties as Json).routes as Json;

/** WordPress's REST index (`/wp-json/`, lib/logic/root.ts), in WordPress 6.8's key order. */
export const restIndexSchema: Json = {
  type: 'object',
  description: "WordPress's index of the REST API: the site, its namespaces, and every route this API serves.",
  properties: {
    name: { type: 'string', description: "The site's title (SITE_NAME)" },
    description: { type: 'string', description: "The site's tagline (SITE_DESCRIPTION)" },
    url: { type: 'string', format: 'uri', description: 'The site URL' },
    home: { type: 'string', format: 'uri', description: "The language's home page" },
    gmt_offset: { type: ['number', 'string'], description: "The site time zone's offset from UTC now, in hours" },
    timezone_string: { type: 'string', description: "The site's IANA time zone; empty for a fixed UTC±N offset" },
    page_for_posts: { type: 'integer' },
    page_on_front: { type: 'integer' },
    show_on_front: { type: 'string' },
    namespaces: { type: 'array', items: { type: 'string' }, description: 'tribe/events/v1 and wp/v2' },
    authentication: {
      type: 'object',
      description: 'application-passwords: the route that makes a password for the signed-in caller (there is no authorization screen)',
    },
    routes: { ...routesSchema, description: 'Every route served, keyed by its WordPress pattern: / itself, each namespace index, each operation' },
    site_logo: { type: 'integer' },
    site_icon: { type: 'integer' },
    site_icon_url: { type: 'string' },
    _links: { type: 'object', properties: { help: links }, required: ['help'] },
  },
  required: ['name', 'description', 'url', 'home', 'namespaces', 'authentication', 'routes', '_links'],
};

/** WordPress's error envelope (lib/contract/errors.ts). */
export const errorSchema: Json = {
  type: 'object',
  description: "WordPress's error envelope.",
  properties: {
    code: { type: 'string', description: 'The error code, e.g. rest_invalid_param or rest-event-not-found' },
    message: { type: 'string', description: 'A human-readable message' },
    data: {
      type: 'object',
      properties: {
        status: { type: 'integer', description: 'The HTTP status' },
        params: {
          description: 'rest_invalid_param: why each parameter is invalid, by name; rest_missing_callback_param: the missing names',
          anyOf: [
            { type: 'object', additionalProperties: { type: 'string' } },
            { type: 'array', items: { type: 'string' } },
          ],
        },
        details: { description: 'More about the error; [] when there is nothing more', type: ['object', 'array', 'string'] },
      },
      required: ['status'],
      // Some errors carry more, e.g. term_exists its term_id.
      additionalProperties: true,
    },
  },
  required: ['code', 'message', 'data'],
};
