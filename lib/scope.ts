// Values held for one request (its deadline, log context and log writer, capacity tally, `If-Match`,
// and locally its table grants), which must not leak into another request when the local gateway
// runs several in one process. They share a single AsyncLocalStorage: Node copies every storage's
// value onto each promise it creates, and a request creates hundreds, so each extra storage costs
// every request, warm or cold.
import { AsyncLocalStorage } from 'node:async_hooks';

type Values = Readonly<Record<symbol, unknown>>;

const storage = new AsyncLocalStorage<Values>();

/** One value in the request's scope, set for the duration of a call. */
export interface ScopedValue<T> {
  /** Runs `fn` with this value set to `value`; the other values are those of the caller. */
  run<R>(value: T, fn: () => R): R;
  /** The value of the innermost `run` around the caller, if any. */
  get(): T | undefined;
}

export function scopedValue<T>(name: string): ScopedValue<T> {
  const key = Symbol(name);
  return {
    run: (value, fn) => storage.run({ ...storage.getStore(), [key]: value }, fn),
    get: () => storage.getStore()?.[key] as T | undefined,
  };
}
