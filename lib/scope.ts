// Values held for one request (its deadline, log context and log writer, capacity tally, `If-Match`,
// and locally its table grants), which must not leak into another request.
//
// Where requests run at once in one process (the local gateway, tests, Lambda Managed Instances)
// they live in one AsyncLocalStorage. Node then runs a hook for every promise the process makes,
// and a request makes hundreds: on a first call that cost about a fifth of the whole call. A
// standard Lambda process runs one invocation at a time, so there the values live in a plain
// variable, as Lambda's own invocation store keeps its request id. The one way two requests can
// overlap there is an operation still running after its early timeout answer (lib/deadline.ts)
// when the next invocation arrives: it is counted (outliveRequest), and from the first overlap on
// every new request gets an AsyncLocalStorage context while the one left running keeps the plain
// variable.
import { AsyncLocalStorage } from 'node:async_hooks';

type Values = Readonly<Record<symbol, unknown>>;

const EMPTY: Values = Object.freeze({});

/** One value in the request's scope, set for the duration of a call. */
export interface ScopedValue<T> {
  /**
   * Runs `fn` with this value set to `value`; the other values are those of the caller. Within a
   * request that runs alone, a run must be awaited before the request goes on (each one is).
   */
  run<R>(value: T, fn: () => R): R;
  /** The value of the innermost `run` around the caller, if any. */
  get(): T | undefined;
}

export interface RequestScopes {
  /** A value of the request's scope, under `name` (for messages only: two values may share it). */
  value<T>(name: string): ScopedValue<T>;
  /** Runs one request: whatever it sets is its own and goes when it ends. */
  request<R>(fn: () => Promise<R>): Promise<R>;
  /** `work` goes on after its request has answered: the values it reads stay its request's. */
  outlive(work: Promise<unknown>): void;
  /** Whether requests are kept apart by an AsyncLocalStorage (always, or since two overlapped). */
  isolated(): boolean;
}

/**
 * The scopes of a process. `oneAtATime`: the process is handed one request at a time (a standard
 * Lambda execution environment), so a plain variable holds them until two ever overlap.
 */
export function requestScopes(oneAtATime: boolean): RequestScopes {
  let storage = oneAtATime ? undefined : new AsyncLocalStorage<Values>();
  /** The values of the request running alone, or of the one left running when another came. */
  let plain = EMPTY;
  /** Requests (and work outliving them) not yet finished, while the variable serves. */
  let open = 0;
  /** Work outlives its request: the variable keeps that request's values until the work ends. */
  let held = false;
  const close = () => {
    open -= 1;
    if (open === 0) {
      plain = EMPTY;
      held = false;
    }
  };

  const settle = <R>(result: R, done: () => void): R => {
    if (result instanceof Promise) return result.finally(done) as R;
    done();
    return result;
  };

  return {
    value<T>(name: string): ScopedValue<T> {
      const key = Symbol(name);
      return {
        run(value, fn) {
          // A request left on the variable when another came has no context of its own: its
          // nested runs start from the variable's values.
          if (storage) return storage.run({ ...(storage.getStore() ?? plain), [key]: value }, fn);
          const outer = plain;
          plain = { ...outer, [key]: value };
          const restore = () => {
            if (!held) plain = outer;
          };
          try {
            return settle(fn(), restore);
          } catch (err) {
            restore();
            throw err;
          }
        },
        get: () => ((storage?.getStore() ?? plain) as Record<symbol, unknown>)[key] as T | undefined,
      };
    },

    request(fn) {
      // Requests that overlap are kept apart; each starts from its caller's values (the local
      // gateway sets the log writer around it), never from the one left on the variable.
      if (storage) return storage.run(storage.getStore() ?? EMPTY, fn);
      if (open > 0) {
        storage = new AsyncLocalStorage<Values>();
        return storage.run(EMPTY, fn);
      }
      open += 1;
      plain = EMPTY;
      try {
        return settle(fn(), close);
      } catch (err) {
        close();
        throw err;
      }
    },

    outlive(work) {
      if (storage) return;
      // Called from within the request: the variable holds all its values, and keeps them.
      held = true;
      open += 1;
      work.then(close, close);
    },

    isolated: () => storage !== undefined,
  };
}

/**
 * A standard Lambda execution environment: the runtime API hands it one invocation at a time
 * (Lambda Managed Instances set AWS_LAMBDA_MAX_CONCURRENCY and hand it several).
 */
export function handedOneAtATime(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.AWS_LAMBDA_RUNTIME_API) && (env.AWS_LAMBDA_MAX_CONCURRENCY ?? '1') === '1';
}

const scopes = requestScopes(handedOneAtATime(process.env));

export const scopedValue = scopes.value;
/** Runs one request in a scope of its own. */
export const inRequestScope = scopes.request;
/** Keeps a request's values for work that goes on after it answered. */
export const outliveRequest = scopes.outlive;
/** Whether this process keeps requests apart with an AsyncLocalStorage. */
export const requestsIsolated = scopes.isolated;
