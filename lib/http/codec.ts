// Request decoding (query strings, JSON and form bodies) and response encoding.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isUtf8 } from 'node:buffer';
import { parseForm, UNSAFE_KEYS } from './form.js';
import { bodyTooLarge, invalidJson, ApiError } from '#lib/contract/errors.js';
import { VARY } from './conditional.js';
import { header } from '#lib/runtime/headers.js';
import type { Reply } from '#lib/contract/reply.js';
import type { Input } from '#lib/contract/request.js';

/** PHP's json_decode gives up past 512 levels; WordPress then answers rest_invalid_json. */
const MAX_DEPTH = 512;
/** A surrogate code unit that is not half of a pair (with the u flag, pairs are one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
/** C0 control characters but tab, line feed and carriage return. */
const CONTROLS = /[\x00-\x08\x0B\x0C\x0E-\x1F]/g;

/**
 * Text as a request may carry it. Values of a body keep their control characters, as WordPress
 * keeps them (a title with U+0000 is stored with it for users with unfiltered_html; kses removes
 * them for the others, and on save where WordPress does); names of parameters and the query
 * string lose them, since they select behaviour rather than carry content.
 */
function plainText(text: string, keepControls: boolean): string {
  // PHP's json_decode, and so WordPress, refuses a `\ud800` escape without its pair.
  if (LONE_SURROGATE.test(text)) throw invalidJson('Single unpaired UTF-16 surrogate in unicode escape');
  return keepControls ? text : text.replace(CONTROLS, '');
}

/**
 * A deep copy of decoded input in which every object has no prototype and no key that names the
 * prototype chain, so that no request can change the objects (or the defaults) of another, and
 * every string is text: no half surrogate pairs, and no C0 control characters in keys (nor in
 * values, unless `keepControls`).
 */
export function plainInput(value: unknown, keepControls = false, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw invalidJson('Maximum stack depth exceeded');
  if (typeof value === 'string') return plainText(value, keepControls);
  if (Array.isArray(value)) return value.map((v) => plainInput(v, keepControls, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(k)) out[plainText(k, false)] = plainInput(v, keepControls, depth + 1);
  return out;
}

/**
 * Parses `a=1&b[]=2&b[]=3&c[x]=4` the PHP way (lib/http/form.ts): `[]` collects a list and `[key]`
 * builds an object, so that form bodies and query strings can carry what JSON bodies carry.
 */
export function parseFormLike(raw: string, keepControls = false): Input {
  return plainInput(parseForm(raw), keepControls) as Input;
}

/** The body's parameters: JSON objects and form bodies; nothing for an empty body. */
export function parseBody(event: APIGatewayProxyEventV2, maxBytes: number): Input {
  if (event.body === undefined || event.body === null || event.body === '') return {};
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > maxBytes) throw bodyTooLarge(maxBytes);
  const text = raw.toString('utf8');
  const type = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseFormLike(text, true);
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    if (text.trim() === '') return {};
    // PHP's json_decode, and so WordPress, refuses bytes that are not UTF-8 (and half surrogate
    // pairs, which plainInput refuses).
    if (!isUtf8(raw)) throw invalidJson('Malformed UTF-8 characters, possibly incorrectly encoded');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw invalidJson((err as Error).message);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidJson('The JSON body must be an object.');
    }
    return plainInput(parsed, true) as Input;
  }
  throw new ApiError(415, 'rest_unsupported_media_type', `Request bodies of type "${type}" are not supported; send JSON or a form.`);
}

/** Response headers browsers may read cross-origin: WordPress's, plus TEC's totals so browsers can page, and a feed's file name and size. */
export const EXPOSED_HEADERS = ['X-WP-Total', 'X-WP-TotalPages', 'Link', 'X-TEC-Total', 'X-TEC-TotalPages', 'ETag', 'Content-Disposition', 'X-Feed-Events', 'X-Feed-Truncated'];
/** Request headers browsers may send cross-origin: WordPress's list, then the conditional and retry headers, and tec/v1's acknowledgement. */
export const ALLOWED_HEADERS = ['Authorization', 'X-WP-Nonce', 'Content-Disposition', 'Content-MD5', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key', 'X-TEC-EEA'];
export const CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';

const BASE_HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  'x-content-type-options': 'nosniff',
  // WordPress keeps its REST answers out of search indexes.
  'x-robots-tag': 'noindex',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
  'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
  // Nothing is cached unless the pipeline says a shared cache may keep it (lib/http/conditional.ts).
  'cache-control': 'private, no-store',
  vary: VARY,
};

/**
 * WordPress's CORS answer (rest_send_cors_headers): a request with an `Origin` gets that origin
 * back, even `null`, with credentials allowed. Credentials here are Authorization headers a
 * script sets itself, never cookies a browser adds, so echoing the origin grants nothing more.
 */
export function corsHeaders(event: APIGatewayProxyEventV2 | undefined): Record<string, string> {
  const origin = event ? header(event, 'origin') : undefined;
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': CORS_METHODS,
    'access-control-allow-credentials': 'true',
  };
}

/** The Lambda result of a reply; `event` decides HEAD (no body) and the CORS headers. */
export function encode(
  reply: Reply,
  extra: Record<string, string>,
  event?: APIGatewayProxyEventV2,
  body = reply.text ?? JSON.stringify(reply.body),
): APIGatewayProxyStructuredResultV2 {
  const head = event?.requestContext?.http?.method === 'HEAD';
  return {
    statusCode: reply.status,
    headers: { ...BASE_HEADERS, ...corsHeaders(event), ...extra, ...(reply.headers ?? {}) },
    // A 304 has no body (RFC 9110 §15.4.5).
    body: head || reply.status === 304 ? '' : body,
  };
}
