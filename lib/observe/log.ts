// The request's log lines: one JSON line per request, and errors with their stack (lib/observe/logger.ts
// writes them). Only fields picked here are logged: never the event, its headers or its body, so
// that no token, password or Authorization value reaches the logs.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CapacityTally } from './capacity.js';
import { header } from '#lib/runtime/headers.js';
import { JsonLogger } from './logger.js';
import { scopedValue } from '#lib/runtime/scope.js';

export const logger = new JsonLogger(process.env.POWERTOOLS_SERVICE_NAME || 'event-calendar-api');

/** What every line of one request carries. */
export interface RequestInfo {
  operation: string;
  method: string;
  /** The path only: query strings may carry passwords (`password` of protected events). */
  path: string;
  /** API Gateway's request id. */
  requestId: string | undefined;
  correlationId: string;
  /** Lambda's invocation id (the one in the function's REPORT line). */
  functionRequestId: string | undefined;
}

/** A client's own id: visible ASCII, no spaces, bounded (it is echoed in a response header). */
const CLIENT_ID = /^[\x21-\x7e]{1,128}$/;
/** W3C trace context: version-traceid-parentid-flags; an all-zero id is invalid. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-|$)/;

/** The id that ties this request to its client's: `X-Request-Id`, else the `traceparent` trace id, else the gateway's. */
export function correlationId(event: APIGatewayProxyEventV2 | undefined, fallback?: string): string {
  const given = event ? header(event, 'x-request-id')?.trim() : undefined;
  if (given && CLIENT_ID.test(given)) return given;
  const trace = event ? TRACEPARENT.exec(header(event, 'traceparent')?.trim().toLowerCase() ?? '') : null;
  if (trace && trace[1] !== 'ff' && !/^0+$/.test(trace[2]!) && !/^0+$/.test(trace[3]!)) return trace[2]!;
  return event?.requestContext?.requestId || fallback || randomUUID();
}

export function requestInfo(operation: string, event: APIGatewayProxyEventV2 | undefined, functionRequestId?: string): RequestInfo {
  return {
    operation,
    method: event?.requestContext?.http?.method ?? 'GET',
    path: event?.rawPath ?? '',
    requestId: event?.requestContext?.requestId,
    correlationId: correlationId(event, functionRequestId),
    functionRequestId,
  };
}

/** `anonymous`, the role (`contributor`, `author`, `editor`), or `none` for a user without one. */
export function callerRole(principal: { role?: string | undefined } | undefined): string {
  if (!principal) return 'anonymous';
  return principal.role ?? 'none';
}

const scopes = scopedValue<RequestInfo>('request');

/** Runs `fn` as the request `info`: lines logged inside it name the request. */
export function inRequest<T>(info: RequestInfo, fn: () => T): T {
  return scopes.run(info, fn);
}

function ids(info: RequestInfo | undefined): Record<string, unknown> {
  if (!info) return {};
  return { operation: info.operation, request_id: info.requestId, correlation_id: info.correlationId, function_request_id: info.functionRequestId };
}

/** An error no handler answered, with its stack, as a line of the current request. */
export function logError(err: unknown, message = 'Unhandled error'): void {
  logger.error({ message, ...ids(scopes.get()), error: err instanceof Error ? err : new Error(String(err)) });
}

let coldStart = true;

export interface RequestOutcome {
  status: number;
  durationMs: number;
  role: string;
  used: CapacityTally;
}

/** The request line. */
export function logRequest(info: RequestInfo, outcome: RequestOutcome): void {
  const cold = coldStart;
  coldStart = false;
  logger.info({
    message: 'request',
    ...ids(info),
    method: info.method,
    path: info.path,
    status: outcome.status,
    duration_ms: Math.round(outcome.durationMs * 10) / 10,
    role: outcome.role,
    dynamodb: { requests: outcome.used.requests, read_units: outcome.used.read, write_units: outcome.used.write },
    cold_start: cold,
  });
}
