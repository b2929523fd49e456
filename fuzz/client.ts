// Sends a generated request as it is, bytes and all: node:http takes a request target with raw
// (latin1) bytes and malformed escapes that fetch would clean up. Keep-alive, a few sockets.
import { Agent, request as httpRequest } from 'node:http';
import { config } from '#lib/runtime/config.js';
import { API_ROOTS, type Api } from '#lib/contract/operations.js';
import { bodyBuffer, pct, type Caller, type FuzzRequest, type RecordRef } from './model.js';

export interface Sent {
  method: string;
  /** The request target: path and query, as on the wire. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/**
 * Records the run knows of, by kind: seeded ones first, then every one a request created. User
 * ids are `ids.users`, application passwords' uuids `slugs.appPasswords`, and each caller's own
 * also `slugs['appPasswords.<caller>']`.
 */
export interface LiveWorld {
  ids: Record<string, number[]>;
  slugs: Record<string, string[]>;
}

export interface Client {
  send(req: Sent): Promise<Received>;
  close(): void;
}

export function client(origin: string, sockets: number): Client {
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return {
    send(req) {
      const started = performance.now();
      return new Promise((ok, fail) => {
        const headers: Record<string, string> = { ...req.headers };
        if (req.body) headers['content-length'] = String(req.body.length);
        const r = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.target, headers, agent, timeout: 60_000 }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
          res.on('error', fail);
        });
        r.on('timeout', () => r.destroy(new Error('no answer within 60 s')));
        r.on('error', fail);
        r.end(req.body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** `/{lang}/<namespace>/events/v1`, or `/{lang}/wp/v2` for WordPress's routes. */
export const apiPath = (lang: string, api: Api = 'tec') => API_ROOTS[api](config().namespace).replace('{lang}', lang);

function resolve(ref: RecordRef, world: LiveWorld, caller: Caller): string {
  // Half the uuids are the caller's own passwords (when it has any): the others' are refused.
  const own = ref.field === 'uuid' && ref.pick % 2 === 0 ? world.slugs[`${ref.kind}.${caller}`] : undefined;
  const list = ref.field === 'id' ? (world.ids[ref.kind] ?? []) : own?.length ? own : (world.slugs[ref.kind] ?? []);
  if (!list.length) return ref.field === 'id' ? '999998' : ref.field === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'no-such-record';
  const v = list[(own?.length ? ref.pick >> 1 : ref.pick) % list.length]!;
  return ref.field === 'id' ? String(v) : pct(String(v));
}

/** The request as it goes on the wire; credentials come from `token(caller)`. */
export function materialize(req: FuzzRequest, world: LiveWorld, token: (c: Caller) => string | undefined): Sent {
  const path = `${apiPath(req.lang, req.api)}${req.segments.map((s) => `/${typeof s === 'string' ? s : resolve(s, world, req.caller)}`).join('')}`;
  const query = req.query.map((p) => p.text).join('&');
  const target = query ? `${path}?${query}` : path;
  const headers: Record<string, string> = { ...req.headers };
  const auth = token(req.caller);
  if (auth !== undefined) headers.authorization = auth;
  return { method: req.method, target, headers, ...(req.body ? { body: bodyBuffer(req.body) } : {}) };
}
