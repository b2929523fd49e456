// WordPress's global query parameters, applied to an answer as WP_REST_Server applies them:
// `_fields` (rest_filter_response_fields, on success only) and `_envelope`
// (WP_REST_Server::envelope_response, on every answer). PHP arrays are JS objects and arrays here:
// an object is an associative array, an array a numeric one, and an empty result is `[]`, as PHP
// encodes an empty array.
import { wpParseList } from '#lib/wp/rest-params.js';

/** A tree of the fields asked for: `true` keeps a key whole, an object keeps some of its keys. */
type FieldTree = { [key: string]: FieldTree | true };

/**
 * The nested field tree of rest_filter_response_fields, quirks included: a later `a` replaces an
 * earlier `a.b`, and a field below one already kept whole (`a`, then `a.b`) ends the list there
 * (PHP's `break 2`), so fields after it are not kept.
 */
export function fieldTree(fields: readonly string[]): FieldTree {
  const tree: FieldTree = Object.create(null);
  for (const field of fields) {
    const parts = field.split('.');
    let ref = tree;
    while (parts.length > 1) {
      const next = parts.shift()!;
      if (ref[next] === true) return tree;
      if (ref[next] === undefined) ref[next] = Object.create(null) as FieldTree;
      ref = ref[next] as FieldTree;
    }
    ref[parts.shift()!] = true;
  }
  return tree;
}

const isPhpArray = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/** _rest_array_intersect_key_recursive: the keys of `data` the tree names, in `data`'s order. */
function intersect(data: unknown, tree: FieldTree): unknown {
  if (!isPhpArray(data)) return data;
  const entries: [string, unknown][] = Array.isArray(data) ? data.map((v, i) => [String(i), v]) : Object.entries(data);
  const kept = entries
    .filter(([key]) => Object.hasOwn(tree, key))
    .map(([key, value]): [string, unknown] => {
      const sub = tree[key];
      return [key, isPhpArray(value) && sub !== true && sub !== undefined ? intersect(value, sub) : value];
    });
  // PHP encodes an array whose keys are 0…n-1 as a list (an empty one too), any other as an object.
  if (kept.every(([key], i) => key === String(i))) return kept.map(([, v]) => v);
  return Object.fromEntries(kept);
}

/**
 * rest_filter_response_fields: the answer's data reduced to the fields `_fields` names (dotted
 * paths reach into objects); each item of a list answer alike. No fields: the data as it is.
 */
export function filterFields(data: unknown, fieldsParam: unknown): unknown {
  const fields = wpParseList(fieldsParam);
  if (fields.length === 0) return data;
  const tree = fieldTree(fields);
  return Array.isArray(data) ? data.map((item) => intersect(item, tree)) : intersect(data, tree);
}

/** The response headers an envelope carries: the answer's own, not the server's (content type, caching, CORS). */
const ENVELOPE_HEADERS = /^(?:allow|link|location|retry-after|www-authenticate|x-wp-.*|x-tec-.*|content-disposition|x-feed-.*)$/i;
/** The headers WordPress and TEC set as integers (`(int) $total`), which the envelope's JSON keeps as numbers. */
const INTEGER_HEADERS = /^x-(?:wp|tec)-total(?:pages)?$/i;

/** WordPress's spelling of the header names this API sets in lower case. */
const CANONICAL: Record<string, string> = { allow: 'Allow', link: 'Link', location: 'Location', 'retry-after': 'Retry-After', 'www-authenticate': 'WWW-Authenticate' };

/** The headers of an answer as an envelope shows them: its own headers, then `Allow`, integers as numbers. */
export function envelopeHeaders(headers: Record<string, string>, allow: string | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!ENVELOPE_HEADERS.test(name) || /^allow$/i.test(name)) continue;
    const key = CANONICAL[name] ?? name;
    out[key] = INTEGER_HEADERS.test(name) && /^\d+$/.test(value) ? Number(value) : value;
  }
  const ownAllow = Object.entries(headers).find(([name]) => /^allow$/i.test(name))?.[1];
  if (ownAllow !== undefined || allow !== undefined) out.Allow = (ownAllow ?? allow)!;
  return out;
}

/** Whether the query string asks for an envelope (`$_GET['_envelope']` set, with any value). */
export function wantsEnvelope(rawQueryString: string | undefined): boolean {
  // A query without the word and without percent-escapes (which could spell it) is not parsed.
  if (!rawQueryString || (!rawQueryString.includes('_envelope') && !rawQueryString.includes('%'))) return false;
  for (const [name] of new URLSearchParams(rawQueryString)) if (name === '_envelope' || name.startsWith('_envelope[')) return true;
  return false;
}

/** WP_REST_Server::envelope_response: the answer as data, sent with 200. */
export function envelope(
  body: unknown,
  status: number,
  headers: Record<string, string | number>,
): { body: unknown; status: number; headers: Record<string, string | number> | [] } {
  // PHP encodes an empty header array as [].
  return { body, status, headers: Object.keys(headers).length ? headers : [] };
}

/**
 * An operation's answer as WordPress serves it: its data reduced to `_fields` (a success only;
 * `fields` is the `_fields` parameter, from the body or the query), then wrapped in an envelope
 * when the query string has `_envelope`. A file that is not JSON (a calendar) is sent as it is.
 */
export function wpShaped<R extends { status: number; body: unknown; headers?: Record<string, string>; text?: string }>(
  reply: R,
  fields: unknown,
  rawQueryString: string | undefined,
  allow: string | undefined,
): { reply: R; enveloped: boolean } {
  if (reply.text !== undefined) return { reply, enveloped: false };
  const body = reply.status < 400 ? filterFields(reply.body, fields) : reply.body;
  if (!wantsEnvelope(rawQueryString)) return { reply: { ...reply, body }, enveloped: false };
  return { reply: { ...reply, status: 200, body: envelope(body, reply.status, envelopeHeaders(reply.headers ?? {}, allow)), headers: {} }, enveloped: true };
}
