// The local stand-in for API Gateway's routing and its Lambda integration: matches a request
// against the operation table, exactly as an HTTP API matches its routes, and builds the
// payload-format-2.0 event that API Gateway would hand to the Lambda function.
//
// Fidelity notes (HTTP API, payload 2.0):
// - Route parameters match any single non-empty segment; the handlers check `{lang}` and `{id}`.
// - `rawPath` and `pathParameters` arrive percent-decoded, `rawQueryString` as sent, and
//   `queryStringParameters` decoded with repeated names comma-joined.
// - Header names are lower-cased and repeated headers comma-joined; the `cookie` header becomes
//   the `cookies` list. The `x-forwarded-*` headers API Gateway adds are added.
// - Text bodies (JSON, forms, text/*, XML) are passed as UTF-8; anything else is base64, and so
//   is a text body whose bytes are not UTF-8.
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { safeDecode, type RouteMatch } from '#lib/contract/routes.js';

export { matchRoute, type RouteMatch } from '#lib/contract/routes.js';

export interface LocalRequest {
  method: string;
  /** The request target as sent: path and optional query, e.g. `/en/tribe/events/v1/events?page=2`. */
  url: string;
  /** Node's `IncomingMessage.headers` shape (arrays for repeated headers) or plain strings. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * Node's `rawHeaders` (name, value, name, value…). When given it wins: Node's `headers` keeps only
   * the first of some repeated headers (Authorization among them), API Gateway joins them all.
   */
  rawHeaders?: string[];
  body?: Buffer;
  /** The client's address (`::ffff:` prefixes are removed). */
  remoteAddress?: string;
  /** The local server's port, for `x-forwarded-port`. */
  localPort?: number;
  /** HTTP version, default `1.1`. */
  httpVersion?: string;
  /** Fixed values for tests. */
  requestId?: string;
  now?: Date;
}

const TEXT_TYPES = /^(text\/.*|application\/(json|.*\+json|x-www-form-urlencoded|xml|.*\+xml|javascript|ecmascript|graphql|yaml|x-yaml))$/;

/** Whether API Gateway passes a body of this content type as text (else it base64-encodes it). */
export function isTextContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return TEXT_TYPES.test(type);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
/** API Gateway's `requestContext.time` format: `12/Mar/2020:19:03:58 +0000`. */
export function requestTime(d: Date): string {
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

// Header names are the client's: one named `__proto__` or `constructor` is an ordinary header to
// API Gateway, so they are collected in a Map and become own properties of the event's headers.
function pairs(raw: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = out.get(name);
    if (values) values.push(raw[i + 1]!);
    else out.set(name, [raw[i + 1]!]);
  }
  return out;
}

/** Builds the payload-2.0 event API Gateway would send for this request and route. */
export function toApiGatewayEvent(req: LocalRequest, match: RouteMatch): APIGatewayProxyEventV2 {
  const now = req.now ?? new Date();
  const q = req.url.indexOf('?');
  const rawTarget = q === -1 ? req.url : req.url.slice(0, q);
  const rawQueryString = q === -1 ? '' : req.url.slice(q + 1).replace(/#.*$/, '');
  const rawPath = safeDecode(rawTarget.replace(/#.*$/, ''));

  const joined = new Map<string, string>();
  let cookieHeader: string[] = [];
  for (const [name, value] of req.rawHeaders ? pairs(req.rawHeaders) : Object.entries(req.headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    const values = Array.isArray(value) ? value : [value];
    if (key === 'cookie') {
      cookieHeader = cookieHeader.concat(values);
      continue;
    }
    const before = joined.get(key);
    joined.set(key, before === undefined ? values.join(',') : `${before},${values.join(',')}`);
  }
  const sourceIp = (req.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const forwarded = joined.get('x-forwarded-for');
  joined.set('x-forwarded-for', forwarded ? `${forwarded}, ${sourceIp}` : sourceIp);
  if (!joined.has('x-forwarded-port')) joined.set('x-forwarded-port', String(req.localPort ?? 80));
  if (!joined.has('x-forwarded-proto')) joined.set('x-forwarded-proto', 'http');
  // Own data properties, whatever the names (`__proto__` included), in an object the handlers read fast.
  const headers = Object.fromEntries(joined) as Record<string, string>;

  const cookies = cookieHeader
    .flatMap((c) => c.split(';'))
    .map((c) => c.trim())
    .filter((c) => c !== '');

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString !== '') {
    queryStringParameters = {};
    for (const [name, value] of new URLSearchParams(rawQueryString)) {
      const prev = queryStringParameters[name];
      queryStringParameters[name] = prev === undefined ? value : `${prev},${value}`;
    }
  }

  const host = headers.host ?? 'localhost';
  const domainName = host.replace(/:\d+$/, '');
  const requestId = req.requestId ?? randomUUID();
  const method = req.method.toUpperCase();

  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(match.pathParameters ? { pathParameters: { ...match.pathParameters } } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0]!,
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion ?? '1.1'}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: match.routeKey,
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: false,
  };
  const body = req.body;
  if (body && body.length > 0) {
    // A "text" body that is not UTF-8 keeps its bytes (base64), so the handler sees what was sent.
    if (isTextContentType(headers['content-type']) && isUtf8(body)) {
      event.body = body.toString('utf8');
    } else {
      event.body = body.toString('base64');
      event.isBase64Encoded = true;
    }
  }
  return event;
}
