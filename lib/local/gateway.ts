// The local API Gateway: an HTTP server that routes with the operation table, turns each request
// into a payload-2.0 event, runs the operation's handler module in-process, and writes its result
// back, as API Gateway's Lambda proxy integration does. Besides the API, it serves an interactive
// API reference at /docs (docs-page.ts), which the deployed API does not have.
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ImportedRecord, ImportingContext } from '#lib/contract/imported.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { FALLBACK_TIMEOUT_SECONDS, type Operation } from '#lib/contract/operations.js';
import { busy, BUSY_RETRY_AFTER_S } from '#lib/contract/errors.js';
import { docsResponse } from './docs-page.js';
import { INTEGRATION_TIMEOUT_MS, invocationSlots } from './slots.js';
import { atTheEdge } from './edge.js';
import { runWithGrants } from './grants.js';
import { matchRoute, toApiGatewayEvent, type RouteMatch } from './event.js';
import { logFormat, renderRequest, terminalLogWriter, type LogFormat, type TerminalLogOptions } from './terminal-log.js';

// The handlers' log lines already carry every number of their metrics, so the EMF blobs
// (lib/observe/metrics.ts) are left out locally unless POWERTOOLS_METRICS_DISABLED=false asks for them.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/** The repository root (handler module paths in the operation table are relative to it). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** API Gateway's own payload limit. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown> | unknown;

const modules = new Map<string, Promise<LambdaHandler>>();

/** Imports a handler module (path relative to the repository root) once, and returns its `handler`. */
export function loadHandler(modulePath: string): Promise<LambdaHandler> {
  let loaded = modules.get(modulePath);
  if (!loaded) {
    loaded = (async () => {
      const mod = (await import(pathToFileURL(resolve(REPO_ROOT, modulePath)).href)) as { handler?: unknown };
      if (typeof mod.handler !== 'function') throw new Error(`${modulePath} does not export a handler function`);
      return mod.handler as LambdaHandler;
    })();
    modules.set(modulePath, loaded);
    // A failed import (say, a module not written yet) is retried on the next request.
    loaded.catch(() => modules.delete(modulePath));
  }
  return loaded;
}

/** A minimal Lambda context, enough for the pipeline and for code that reads the request id or its time left. */
export function lambdaContext(functionName: string, awsRequestId: string = randomUUID(), timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  const name = `local-${functionName.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION || 'us-east-1'}:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** What API Gateway answers when the function fails or times out (not a WordPress envelope). */
export const LAMBDA_FAILED: APIGatewayProxyStructuredResultV2 = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Internal Server Error' }),
};

/**
 * One invocation as Lambda runs it: the operation's table grants (IAM) and its timeout, once one of
 * the process's slots is free (slots.ts). A handler still running at the timeout gets API
 * Gateway's 500, as a killed function would (work it had already sent to DynamoDB may still land,
 * as on AWS).
 */
export async function runLambda(
  handler: LambdaHandler,
  event: APIGatewayProxyEventV2,
  op: Operation | undefined,
  how: { requestId?: string; imported?: ImportedRecord } = {},
): Promise<APIGatewayProxyStructuredResultV2> {
  const requestId = how.requestId ?? randomUUID();
  const name = op?.id ?? 'noRoute';
  const timeoutMs = (op?.timeoutSeconds ?? FALLBACK_TIMEOUT_SECONDS) * 1000;
  const release = await invocationSlots().take(INTEGRATION_TIMEOUT_MS - timeoutMs);
  if (!release) return THROTTLED;
  try {
    const context: Context & ImportingContext = lambdaContext(name, requestId, timeoutMs);
    // Only an in-process caller (the import) sets it: no HTTP request can.
    if (how.imported) context.imported = how.imported;
    return await runInSlot(handler, event, op, context, timeoutMs);
  } finally {
    release();
  }
}

/** The answer to an invocation that never got a slot: nothing ran, and the client may send it again. */
const THROTTLED: APIGatewayProxyStructuredResultV2 = {
  statusCode: 503,
  headers: { 'content-type': 'application/json; charset=UTF-8', 'retry-after': String(BUSY_RETRY_AFTER_S) },
  body: JSON.stringify(busy().body()),
};

async function runInSlot(handler: LambdaHandler, event: APIGatewayProxyEventV2, op: Operation | undefined, context: Context, timeoutMs: number) {
  const name = op?.id ?? 'noRoute';
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((ok) => (timer = setTimeout(() => ok('timeout'), timeoutMs)));
  try {
    const result = await Promise.race([runWithGrants(op, context.functionName, () => Promise.resolve(handler(event, context))), timedOut]);
    if (result === 'timeout') {
      console.error(`[gateway] ${name}: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
      return LAMBDA_FAILED;
    }
    return normalizeResult(result);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Normalizes what a handler returned the way API Gateway does for payload 2.0: a structured
 * result is used as is; anything else is a 200 JSON body.
 */
export function normalizeResult(result: unknown): APIGatewayProxyStructuredResultV2 {
  if (result && typeof result === 'object' && 'statusCode' in result) return result as APIGatewayProxyStructuredResultV2;
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result ?? null),
  };
}

export function wpError(status: number, code: string, message: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ code, message, data: { status } }),
  };
}

export interface GatewayOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks an ephemeral port. */
  port?: number;
  /** No per-request log lines (warnings and errors still show). */
  quiet?: boolean;
  /** `json`: the log lines as Lambda prints them; `pretty`: one readable line per request. Default: see logFormat(). */
  logFormat?: LogFormat;
  /** Largest request body, default 10 MB (API Gateway's limit). */
  maxBodyBytes?: number;
  /** How long a body may pause, and take in all, default BODY_IDLE_MS and BODY_DEADLINE_MS. */
  bodyTimeouts?: BodyTimeouts;
  /** Replaces the handler lookup (tests); receives the module path and the match. */
  loadHandler?: (modulePath: string, match: RouteMatch) => Promise<LambdaHandler> | LambdaHandler;
  /** Where log lines go, default console.log / console.error. */
  log?: (line: string) => void;
}

export interface Gateway {
  /** `http://<host>:<port>`, no trailing slash. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

class TooLarge extends Error {}
/** The body stopped arriving (a Content-Length larger than what was sent, a chunked body without its end). */
class TimedOut extends Error {}
/** The client closed the connection before its whole body arrived: nobody is left to answer. */
class ClientGone extends Error {}

type Refusal = [status: number, code: string, message: string];

/** What the local server answers for requests Node's HTTP parser refuses, by Node's error code. */
const CLIENT_ERRORS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: [431, 'rest_headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'rest_request_timeout', 'The request was not received in time.'],
  default: [400, 'rest_bad_request', 'The request is not valid HTTP.'],
};
const BODY_TIMED_OUT = CLIENT_ERRORS.ERR_HTTP_REQUEST_TIMEOUT!;

/**
 * The methods an HTTP API can route: a route key names GET, POST, PUT, PATCH, DELETE, HEAD or
 * OPTIONS, and `ANY` stands for these (API Gateway developer guide, "Create routes for HTTP APIs";
 * CDK's `HttpMethod`). CloudFront forwards the same seven and no other (CloudFront API reference,
 * `AllowedMethods`: GET | HEAD | POST | PUT | PATCH | OPTIONS | DELETE). A request with another
 * method (TRACE, CONNECT, PROPFIND…) reaches no function; AWS does not document the status its
 * front end sends, so it gets HTTP's answer for a method the server knows but does not serve:
 * 405 with `Allow` (RFC 9110 §15.5.6), the connection closed. A method token Node's parser does
 * not know at all (`FOO`) is refused by the parser as malformed, 400, as an AWS load balancer
 * answers a malformed method field (Elastic Load Balancing, "Troubleshoot a Classic Load Balancer:
 * HTTP errors").
 */
const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOW = [...ROUTABLE].join(', ');
const METHOD_REFUSED: Refusal = [405, 'rest_method_not_allowed', 'The request method is not one this API serves.'];

/**
 * How long a request body may pause, and the longest it may take in all, before the request is
 * answered 408 and its connection closed: a client whose Content-Length promises more than it
 * sends, or whose chunked body never ends, gets an answer instead of an open socket. Both are
 * well inside API Gateway's 30-second integration timeout, so the local server gives up on such a
 * request no later than API Gateway would; a body sent at once is never near either.
 */
export const BODY_IDLE_MS = 5_000;
const BODY_DEADLINE_MS = 25_000;

export interface BodyTimeouts {
  idleMs: number;
  deadlineMs: number;
}

/** An answer written straight to the socket (no ServerResponse exists), then the connection closed. */
function refuseOnSocket(socket: Duplex, [status, code, message]: Refusal, extraHeaders = ''): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ code, message, data: { status } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=UTF-8\r\n${extraHeaders}` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The most of a too-large upload that is read (and dropped) before the 413 is sent: a client that
 * is still sending when the connection closes sees a reset (EPIPE) instead of the answer, so an
 * upload up to this size is received whole first; a larger one is cut off.
 */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const EMPTY_BODY = Buffer.alloc(0);

/**
 * Reads the body, or rejects with TooLarge once it passes `limit` (dropping what it read): at the
 * end of the upload when it stays under DRAIN_MAX_BYTES, at once past that. Rejects with TimedOut
 * when the body pauses for `idleMs` or is not whole after `deadlineMs` (TooLarge if it was already
 * over the limit), and with ClientGone when the client leaves mid-body.
 */
function readBody(req: IncomingMessage, limit: number, { idleMs, deadlineMs }: BodyTimeouts): Promise<Buffer> {
  // No length and no chunks: HTTP/1.1 says the message has no body (RFC 9112 §6.3), so nothing is waited for.
  if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0')) {
    req.resume();
    return Promise.resolve(EMPTY_BODY);
  }
  return new Promise((resolveBody, rejectBody) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_MAX_BYTES) {
      rejectBody(new TooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    const giveUp = () => fail(over ? new TooLarge() : new TimedOut());
    const idle = setTimeout(giveUp, idleMs);
    const deadline = setTimeout(giveUp, deadlineMs);
    const settle = () => {
      clearTimeout(idle);
      clearTimeout(deadline);
    };
    const ok = (body: Buffer) => (settle(), resolveBody(body));
    const fail = (err: Error) => (settle(), rejectBody(err));
    req.on('data', (chunk: Buffer) => {
      idle.refresh();
      size += chunk.length;
      if (size > DRAIN_MAX_BYTES) return fail(new TooLarge());
      if (over) return;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (over ? fail(new TooLarge()) : ok(Buffer.concat(chunks))));
    // Node reports a client that went away mid-upload as an `aborted` error, then a close.
    req.on('error', () => fail(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) fail(new ClientGone());
    });
  });
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, head: boolean, requestId: string): void {
  const body =
    result.body === undefined || result.body === null ? Buffer.alloc(0) : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(String(result.body), 'utf8');
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  }
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  headers['content-length'] = String(body.length);
  headers['apigw-requestid'] = requestId;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(head ? undefined : body);
}

/** Starts the local gateway. */
export async function startGateway(opts: GatewayOptions = {}): Promise<Gateway> {
  const host = opts.host ?? '127.0.0.1';
  const limit = opts.maxBodyBytes ?? MAX_REQUEST_BYTES;
  const bodyTimeouts = opts.bodyTimeouts ?? { idleMs: BODY_IDLE_MS, deadlineMs: BODY_DEADLINE_MS };
  const log = opts.log ?? ((line: string) => console.log(line));
  const load = opts.loadHandler ?? ((modulePath: string) => loadHandler(modulePath));
  const format = opts.logFormat ?? logFormat();
  const terminal: TerminalLogOptions = {
    format,
    quiet: opts.quiet,
    color: format === 'pretty' && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    out: log,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    // What reaches API Gateway from the CDN: `?rest_route=` rewritten to the REST prefix.
    const target = atTheEdge(method, req.url ?? '/');
    const path = target.split('?')[0]!;
    const requestId = randomUUID();
    const head = method === 'HEAD';
    let match: RouteMatch | undefined;
    let result: APIGatewayProxyStructuredResultV2;
    // The handler logs its request; requests no handler answered (the docs page, refused bodies,
    // failures) get a line of the same shape from here.
    let handlerLogged = false;
    if (!opts.quiet) {
      res.once('close', () => {
        if (handlerLogged) return;
        const line = {
          level: 'INFO',
          message: 'request',
          timestamp: new Date().toISOString(),
          service: 'local-gateway',
          ...(match?.op ? { operation: match.op.id } : {}),
          method,
          path,
          status: res.statusCode,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
          request_id: requestId,
        };
        log(format === 'json' ? JSON.stringify(line) : renderRequest(line, terminal.color));
      });
    }
    try {
      // A method no HTTP API route can name never reaches routing (see ROUTABLE); its body, if
      // any, is not read, so the connection closes rather than parse it as the next request.
      if (!ROUTABLE.has(method)) {
        const [status, code, message] = METHOD_REFUSED;
        res.setHeader('connection', 'close');
        res.setHeader('allow', ALLOW);
        writeResult(res, wpError(status, code, message), false, requestId);
        return;
      }
      // The API reference page (GET /docs and its files under /docs/assets/): local only.
      const docs = await docsResponse(method, target, req.headers);
      if (docs) {
        req.resume();
        res.writeHead(docs.status, docs.status === 304 ? docs.headers : { ...docs.headers, 'content-length': String(docs.body.length) });
        res.end(head || docs.status === 304 ? undefined : docs.body);
        return;
      }
      match = matchRoute(method, path);
      let body: Buffer;
      try {
        body = await readBody(req, limit, bodyTimeouts);
      } catch (err) {
        if (err instanceof ClientGone) return;
        if (err instanceof TimedOut) {
          // Nothing of it reaches a function; the rest of a body that may still come is not read.
          const [status, code, message] = BODY_TIMED_OUT;
          res.setHeader('connection', 'close');
          writeResult(res, wpError(status, code, message), head, requestId);
          return;
        }
        if (!(err instanceof TooLarge)) throw err;
        // Past DRAIN_MAX_BYTES the upload is still coming: Node discards the rest without keeping it.
        result = wpError(413, 'rest_payload_too_large', `The request body is larger than the ${limit} bytes API Gateway accepts.`);
        res.setHeader('connection', 'close');
        writeResult(res, result, head, requestId);
        req.resume();
        return;
      }
      const event = toApiGatewayEvent(
        {
          method,
          url: target,
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          body,
          remoteAddress: req.socket.remoteAddress,
          localPort: req.socket.localPort,
          httpVersion: req.httpVersion,
          requestId,
        },
        match,
      );
      const handler = await load(match.handler, match);
      const writer = terminalLogWriter(terminal, () => (handlerLogged = true));
      result = await withLogWriter(writer, () => runLambda(handler, event, match!.op, { requestId }));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (match && e?.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(resolve(REPO_ROOT, match.handler))) {
        console.error(`[gateway] ${method} ${path}: handler module ${match.handler} does not exist (yet).`);
      } else {
        console.error(`[gateway] ${method} ${path}: ${match ? `${match.handler} failed: ` : ''}${e?.stack ?? e}`);
      }
      result = wpError(500, 'rest_internal_error', 'The server could not complete the request.');
    }
    if (!res.headersSent) writeResult(res, result, head, requestId);
  };

  // The answer still being written on each connection: a parse error in what follows it (bytes
  // past a Content-Length, say) is answered after it, not in its place.
  const answering = new WeakMap<Socket, ServerResponse>();
  const server = createServer((req, res) => {
    answering.set(req.socket, res);
    handle(req, res).catch((err) => {
      console.error('[gateway] failed to answer:', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Requests Node's HTTP parser refuses never reach a handler; they still get an answer in the
  // WordPress envelope rather than Node's bare text.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const refusal = CLIENT_ERRORS[err.code ?? ''] ?? CLIENT_ERRORS.default!;
    const pending = answering.get(socket);
    if (pending && !pending.writableFinished) pending.once('close', () => refuseOnSocket(socket, refusal));
    else refuseOnSocket(socket, refusal);
  });
  // CONNECT asks for a tunnel, which Node hands over as a bare socket (and destroys it when nothing
  // listens): it gets the answer of any method outside ROUTABLE.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refuseOnSocket(socket, METHOD_REFUSED, `allow: ${ALLOW}\r\n`));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, host, () => {
      server.removeListener('error', fail);
      ok();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((ok) => {
      server.close(() => ok());
      server.closeIdleConnections();
      // Requests still running get a moment to finish; then their connections are cut.
      setTimeout(() => server.closeAllConnections(), 2_000).unref();
    }));
  return { url, server, close };
}
