// One request through an operation's handler module, in-process, as API Gateway would deliver
// it (payload 2.0). The benchmark's seeding and the integration tests share it.
import { config, type Lang } from '#lib/runtime/config.js';
import type { ImportedRecord } from '#lib/contract/imported.js';
import { matchRoute, toApiGatewayEvent } from './event.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { loadHandler, runLambda } from './gateway.js';
import { logFormat, terminalLogWriter } from './terminal-log.js';

export interface ApiResult {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  token?: string;
  /** An imported record this write stores (lib/contract/imported.ts), on the invocation's context. */
  imported?: ImportedRecord;
  /** The function's timeout instead of the operation's (tests of what a request does near it). */
  timeoutSeconds?: number;
}

/** One request through the operation's handler module, as API Gateway would deliver it. */
export async function invoke(method: string, lang: Lang, path: string, opts: CallOptions = {}): Promise<ApiResult> {
  const rawPath = `/${lang}/${config().namespace}/events/v1${path}`;
  const qs = opts.query ? `?${new URLSearchParams(Object.entries(opts.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
  const match = matchRoute(method, rawPath);
  if (!match.op) throw new Error(`No route for ${method} ${rawPath}`);
  const op = opts.timeoutSeconds ? { ...match.op, timeoutSeconds: opts.timeoutSeconds } : match.op;
  const headers: Record<string, string> = { host: '127.0.0.1:3000' };
  let body: Buffer | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify(opts.body));
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const event = toApiGatewayEvent({ method, url: rawPath + qs, headers, body }, match);
  const handler = await loadHandler(match.handler);
  // Callers send many requests (tests, seeding): their request lines are left out, errors are not.
  const quiet = terminalLogWriter({ format: logFormat(process.env, Boolean(process.stderr.isTTY)), quiet: true });
  const result = await withLogWriter(quiet, () => runLambda(handler, event, op, { imported: opts.imported }));
  const text = result.body ?? '';
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: result.statusCode ?? 200, body: parsed, headers: (result.headers ?? {}) as Record<string, unknown> };
}
