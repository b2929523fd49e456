// The time a request has left. A handler must answer before its function's timeout (Lambda kills
// it then, and API Gateway answers 500 while a write may still land), so retries and fan-outs
// ask here whether another attempt still fits. Kept in the request's scope (lib/scope.ts), because
// the local gateway runs many requests in one process.
import { scopedValue } from './scope.js';

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
