// The time a request has left. A handler must answer before its function's timeout (Lambda kills
// it then, and API Gateway answers 500 while a write may still land), so retries and fan-outs
// ask here whether another attempt still fits, and an operation still running just before the
// timeout is given up (beforeTimeout). Kept in the request's scope (lib/runtime/scope.ts), because
// the local gateway runs many requests in one process.
import { outliveRequest, scopedValue } from './scope.js';

const store = scopedValue<number>('deadline');

/** Time kept back for answering after the last attempt. */
export const ANSWER_MARGIN_MS = 1_500;

/** Runs `fn` with a deadline `remainingMs` from now (less the answer margin). */
export function withDeadline<T>(remainingMs: number, fn: () => Promise<T>): Promise<T> {
  return store.run(Date.now() + remainingMs - ANSWER_MARGIN_MS, fn);
}

/** Milliseconds left before the request must answer; Infinity outside a request (scripts, tests). */
export function remainingMs(): number {
  const deadline = store.get();
  return deadline === undefined ? Infinity : deadline - Date.now();
}

/**
 * How long before the function's timeout an operation still running is given up: enough for the
 * answer to be encoded and sent even when the event loop is busy (a burst runs hundreds of
 * requests in one local process), so that the client never gets the platform's bare 500.
 */
const TIMEOUT_MARGIN_MS = 250;

/** Time kept for encoding and sending the answer once a write's outcome is settled. */
const SETTLE_RESERVE_MS = 250;

/**
 * Milliseconds left for settling the outcome of a write already sent (resending it with its token,
 * reading it back): the answer margin too, less what answering takes, but never past the point
 * where `beforeTimeout` gives the operation up. Infinity outside a request.
 */
export function settleMs(): number {
  return remainingMs() + ANSWER_MARGIN_MS - TIMEOUT_MARGIN_MS - SETTLE_RESERVE_MS;
}

/** The operation was still running just before the function's timeout. */
export class FunctionTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * `work`'s answer, or a FunctionTimeoutError just before Lambda would kill the function (it has
 * `remainingMs` left): the client then gets a 503 (nothing written, or an unknown outcome when a
 * write was out) and the request its log line, which a killed function never writes.
 */
export async function beforeTimeout<T>(remainingMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // The operation goes on after the answer (on Lambda, once the next invocation thaws it).
      outliveRequest();
      reject(new FunctionTimeoutError("The operation did not finish before the function's timeout."));
    }, remainingMs - TIMEOUT_MARGIN_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
