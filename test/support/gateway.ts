// End-to-end tests through the real local HTTP server: a fresh table, the gateway on an
// ephemeral port, tokens from the development issuer, and a small fetch helper.
import { afterAll, beforeAll } from 'vitest';
import type { Role } from '#lib/contract/principal.js';
import { config, resetConfig } from '#lib/runtime/config.js';
import type { MintOptions } from '#lib/local/dev-auth.js';
import { startGateway, type Gateway, type GatewayOptions } from '#lib/local/gateway.js';
import { useStreamPoller, type StreamHarness } from './stream.js';
import { roleToken } from './tokens.js';
import { useFreshTable } from './table.js';

export type Lang = 'en' | 'lt' | 'ru' | (string & {});

export interface ApiOptions {
  /** A JSON body (objects are serialized; strings and Buffers are sent as they are). */
  body?: unknown;
  /** A form body (`application/x-www-form-urlencoded`); arrays become `name[]=a&name[]=b`. */
  form?: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  /** A bearer token, or a role to mint one for (subject `local-<role>`). */
  token?: string | Role;
  headers?: Record<string, string>;
  /** Query parameters appended to the path. */
  query?: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  /** The path's language segment, default `en`. */
  lang?: Lang;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: T;
  /** The body as text. */
  text: string;
}

export interface GatewayHarness {
  /** The table this file's gateway uses. */
  readonly table: string;
  /** `http://127.0.0.1:<port>` (available from beforeAll on). */
  readonly origin: string;
  /** `<origin>/en/tribe/events/v1`. */
  readonly base: string;
  /** `url('/events/12')` -> `<origin>/en/tribe/events/v1/events/12`; full URLs pass through. */
  url(path?: string, lang?: Lang): string;
  /** `abs('/xx/whatever')` -> `<origin>/xx/whatever`: any path on the server. */
  abs(path: string): string;
  /** A bearer token from the development issuer. */
  token(role?: Role, sub?: string, opts?: Omit<MintOptions, 'role' | 'sub'>): Promise<string>;
  /** One request: `api('POST', '/events', { body, token: 'editor' })`. */
  api<T = any>(method: string, path: string, opts?: ApiOptions): Promise<ApiResponse<T>>;
  /**
   * Until the stream consumer has handled every change written so far (the search index, the
   * cards of many linked events and the change feed follow the table a moment later, as on AWS).
   */
  drain(): Promise<void>;
  /** The table's stream: the local poller running the real consumer, and the local change feed. */
  readonly stream: StreamHarness;
}

function formEncode(values: NonNullable<ApiOptions['form']>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const v of value) params.append(`${name}[]`, String(v));
    else params.append(name, String(value));
  }
  return params.toString();
}

const ROLE_NAMES = new Set(['editor', 'author', 'contributor']);

/**
 * For an e2e file: a fresh table and the local gateway on an ephemeral port (quiet), started in
 * beforeAll and closed in afterAll. SITE_URL is the gateway's URL, so links in responses work.
 */
export function useGateway(opts: Pick<GatewayOptions, 'loadHandler' | 'maxBodyBytes'> & { tablePrefix?: string; stream?: boolean } = {}): GatewayHarness {
  const table = useFreshTable(opts.tablePrefix ?? 'e2e', { stream: opts.stream });
  // `stream: true`: as under `npm start`, the table's changes reach the stream consumer (files
  // that read what it derives: search, the cards of many events, the change feed). Others skip
  // its work, which would only slow the shared DynamoDB Local down.
  const stream = opts.stream ? useStreamPoller() : undefined;
  let gateway: Gateway | undefined;

  beforeAll(async () => {
    gateway = await startGateway({ host: '127.0.0.1', port: 0, quiet: true, ...opts });
    process.env.SITE_URL = gateway.url;
    resetConfig();
  });
  afterAll(async () => {
    await gateway?.close();
    // A change the consumer could not apply is a bug wherever it shows up.
    const dead = stream?.poller.deadLetters ?? [];
    if (dead.length) throw new Error(`${dead.length} stream records failed in the consumer:\n${stream!.lines.join('\n')}`);
  });

  const origin = () => {
    if (!gateway) throw new Error('useGateway(): the gateway starts in beforeAll; use it inside tests or hooks.');
    return gateway.url;
  };
  const url = (path = '', lang: Lang = 'en') => (/^https?:\/\//.test(path) ? path : `${origin()}/${lang}/${config().namespace}/events/v1${path}`);
  const token = roleToken;

  return {
    table,
    get origin() {
      return origin();
    },
    get base() {
      return url('');
    },
    url,
    abs: (path: string) => `${origin()}${path}`,
    token,
    drain: () => {
      if (!stream) throw new Error('This gateway runs no stream consumer: useGateway({ stream: true }).');
      return stream.drain();
    },
    get stream() {
      if (!stream) throw new Error('This gateway runs no stream consumer: useGateway({ stream: true }).');
      return stream;
    },
    async api(method, path, o = {}) {
      let target = url(path, o.lang);
      if (o.query) {
        const q = new URLSearchParams();
        for (const [name, value] of Object.entries(o.query)) {
          if (Array.isArray(value)) for (const v of value) q.append(`${name}[]`, String(v));
          else q.append(name, String(value));
        }
        target += (target.includes('?') ? '&' : '?') + q.toString();
      }
      const headers: Record<string, string> = {};
      let body: string | Buffer | undefined;
      if (o.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = formEncode(o.form);
      } else if (o.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = typeof o.body === 'string' || Buffer.isBuffer(o.body) ? o.body : JSON.stringify(o.body);
      }
      if (o.token) {
        const bearer = ROLE_NAMES.has(o.token) ? await token(o.token as Role) : o.token;
        headers.authorization = `Bearer ${bearer}`;
      }
      for (const [name, value] of Object.entries(o.headers ?? {})) headers[name.toLowerCase()] = value;
      const res = await fetch(target, { method, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
  };
}
