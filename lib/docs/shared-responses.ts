// What the responses of TEC's and WordPress's operations are made of: a body with its schema, the
// error envelope, the responses many share (components.responses) and the validator headers.
import { ref, type Json } from './json-schema.js';

export const content = (schema: Json) => ({ 'application/json': { schema } });
export const ok = (description: string, schema: Json): Json => ({ description, content: content(schema) });
export const fail = (description: string): Json => ({ description, content: content(ref('Error')) });

/** Responses many operations share, in components.responses. */
const RETRY_AFTER: Json = { 'Retry-After': { description: 'Seconds to wait before sending the request again', schema: { type: 'integer' } } };

export const SHARED_RESPONSES = {
  Conflict: fail('Another request changed the same records at the same time; nothing was written and the request may be retried (rest_conflict)'),
  Unauthorized: fail(
    'No credentials, an invalid bearer token or a malformed Authorization header (rest_forbidden), or HTTP Basic with an unknown login (invalid_username) or a wrong application password (incorrect_password)',
  ),
  BadToken: fail(
    'The Authorization header is malformed or its token is invalid (rest_forbidden), or HTTP Basic names an unknown login (invalid_username) or a wrong application password (incorrect_password); reads need no credentials',
  ),
  PayloadTooLarge: fail('The request body is larger than the limit (rest_payload_too_large)'),
  UnsupportedMediaType: fail('The request body is neither JSON nor a form (rest_unsupported_media_type)'),
  InternalError: fail('The server could not complete the request (rest_internal_error)'),
  Busy: {
    ...fail('The server was too busy to answer in time (rest_busy): the request may be sent again after Retry-After seconds'),
    headers: RETRY_AFTER,
  },
  OutcomeUnknown: {
    ...fail(
      'The server was too busy to carry out the request in time and wrote nothing (rest_busy): it may be sent again after Retry-After seconds; or a write of this request was sent, but whether it was stored could not be learned before the time ran out (rest_outcome_unknown): a create is sent again with the same Idempotency-Key, an update after reading the record again, with If-Match',
    ),
    headers: RETRY_AFTER,
  },
} satisfies Record<string, Json>;
export const shared = (name: keyof typeof SHARED_RESPONSES): Json => ({ $ref: `#/components/responses/${name}` });
export const VALIDATOR_HEADERS: Json = {
  ETag: { $ref: '#/components/headers/ETag' },
  'Cache-Control': { $ref: '#/components/headers/Cache-Control' },
};
