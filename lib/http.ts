// Request decoding (query strings, JSON and form bodies) and response encoding.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { bodyTooLarge, invalidJson, ApiError } from './errors.js';

export type Input = Record<string, unknown>;

/**
 * Parses `a=1&b[]=2&b[]=3&c[x]=4` the PHP way: `[]` collects a list and `[key]` builds an object,
 * so that form bodies and query strings can carry what JSON bodies carry.
 */
export function parseFormLike(raw: string): Input {
  const out: Input = {};
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    if (!m) {
      out[rawKey] = value;
      continue;
    }
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!)];
    let node: Record<string, unknown> | unknown[] = out;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, unknown> & unknown[];
      if (segment === '') {
        if (!Array.isArray(node)) return; // `a[]` under an object key that is not a list: ignore
        if (last) container.push(value);
        else {
          const child = {};
          container.push(child);
          node = child;
        }
        return;
      }
      if (last) {
        container[segment as never] = value as never;
        return;
      }
      const nextIsList = path[i + 1] === '';
      const existing = container[segment as never] as unknown;
      if (existing === undefined || typeof existing !== 'object' || existing === null) {
        container[segment as never] = (nextIsList ? [] : {}) as never;
      }
      node = container[segment as never] as never;
    });
  }
  return out;
}

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** The body's parameters: JSON objects and form bodies; nothing for an empty body. */
export function parseBody(event: APIGatewayProxyEventV2, maxBytes: number): Input {
  if (event.body === undefined || event.body === null || event.body === '') return {};
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.length > maxBytes) throw bodyTooLarge(maxBytes);
  const text = raw.toString('utf8');
  const type = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseFormLike(text);
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    if (text.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw invalidJson((err as Error).message);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidJson('The JSON body must be an object.');
    }
    return parsed as Input;
  }
  throw new ApiError(415, 'rest_unsupported_media_type', `Request bodies of type "${type}" are not supported; send JSON or a form.`);
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

/** Response headers browsers may read cross-origin (the CDK stack's CORS settings use the same). */
export const EXPOSED_HEADERS = ['X-WP-Total', 'X-WP-TotalPages', 'Link', 'X-TEC-Total', 'X-TEC-TotalPages'];

const BASE_HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  'x-content-type-options': 'nosniff',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
  'access-control-allow-headers': 'Authorization, Content-Type',
};

export function encode(reply: Reply, extra: Record<string, string>, head: boolean): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: reply.status,
    headers: { ...BASE_HEADERS, ...extra, ...(reply.headers ?? {}) },
    body: head ? '' : JSON.stringify(reply.body),
  };
}
