// One invocation, observed: run in a request scope of its own (lib/runtime/scope.ts), its DynamoDB use
// counted, its correlation id echoed as `X-Request-Id`, then one log line and one EMF blob. Shared
// by every operation's handler (lib/http/pipeline.ts) and the no-route fallback.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { capacity, emptyTally } from './capacity.js';
import { inRequest, logError, logRequest, requestInfo } from './log.js';
import { publishRequestMetrics } from './metrics.js';
import { inRequestScope } from '#lib/runtime/scope.js';

type Result = APIGatewayProxyStructuredResultV2;

export interface Observed {
  operation: string;
  event: APIGatewayProxyEventV2 | undefined;
  /** Lambda's invocation id. */
  functionRequestId?: string;
  /** The caller's role once the request is done (see callerRole). */
  role: () => string;
}

export function observe(o: Observed, run: () => Promise<Result>): Promise<Result> {
  return inRequestScope(() => observed(o, run));
}

async function observed(o: Observed, run: () => Promise<Result>): Promise<Result> {
  const started = performance.now();
  const info = requestInfo(o.operation, o.event, o.functionRequestId);
  const used = emptyTally();
  let status = 500;
  try {
    const result = await inRequest(info, () => capacity.scoped(used, run));
    status = result.statusCode ?? 200;
    result.headers = { ...result.headers, 'x-request-id': info.correlationId };
    return result;
  } catch (err) {
    // The function fails, and API Gateway answers 500 on its own.
    inRequest(info, () => logError(err));
    throw err;
  } finally {
    const durationMs = performance.now() - started;
    try {
      logRequest(info, { status, durationMs, role: o.role(), used });
      publishRequestMetrics({ operation: o.operation, status, durationMs, readUnits: used.read, writeUnits: used.write });
    } catch (err) {
      // Telemetry never changes the answer.
      console.error('Could not log the request:', err);
    }
  }
}
