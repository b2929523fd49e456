// Values held for one request (its deadline, log context and log writer, capacity tally,
// and locally its table grants), which must not leak into another request.
//
// Where requests run at once in one process (the local gateway, tests, Lambda Managed Instances)
// they live in one AsyncLocalStorage. Node then runs a hook for every promise the process makes,
// and a request makes hundreds: on a first call that cost up to a fifth of the whole call. A
// standard Lambda process is handed one invocation at a time, so there the values live in a plain
// variable, as Lambda's own invocation store keeps its request id.
//
// Requests wait for the work they start (lib/runtime/settle.ts), but one can still leave work running
// after it answers: an operation given up at its early timeout (lib/runtime/deadline.ts), or a DynamoDB
// request or retry wait still out when the run that started it ends. Both are known here
// (outliveRequest, requestWork). The variable then keeps that request's values for the work left
// behind, and every later request gets an AsyncLocalStorage context of its own, as does any
// request that starts while another is open.
import { AsyncLocalStorage } from 'node:async_hooks';

type Values = Readonly<Record<symbol, unknown>>;

const EMPTY: Values = Object.freeze({});

/** One value in the request's scope, set for the duration of a call. */
export interface ScopedValue<T> {
  /**
   * Runs `fn` with this value set to `value`; the other values are those of the caller. Within a
   * request that runs alone, runs nest: each is awaited before the request goes on (each one is).
   */
  run<R>(value: T, fn: () => R): R;
  /** The value of the innermost `run` around the caller, if any. */
  get(): T | undefined;
}

export interface RequestScopes {
  /** A value of the request's scope, under `name` (for messages only: two values may share it). */
  value<T>(name: string): ScopedValue<T>;
  /** Runs one request, from its caller's values: whatever it sets is its own and goes when it ends. */
  request<R>(fn: () => Promise<R>): Promise<R>;
  /** The current request answers while its work goes on: the values that work reads stay its own. */
  outlive(): void;
  /** `work` belongs to the current request; if the request ends before it, it was left running. */
  work<T>(work: Promise<T>): Promise<T>;
  /** Whether requests are kept apart by an AsyncLocalStorage (always, or since one left work running). */
  isolated(): boolean;
}

/**
 * The scopes of a process. `oneAtATime`: the process is handed one request at a time (a standard
 * Lambda execution environment), so a plain variable holds them until work outlives a request.
 */
export const requestScopes = (oneAtATime: boolean): RequestScopes => new Scopes(oneAtATime);

const settle = <R>(result: R, done: () => void): R => {
  if (result instanceof Promise) return result.finally(done) as R;
  done();
  return result;
};

class Scopes implements RequestScopes {
  private storage: AsyncLocalStorage<Values> | undefined;
  /** The values of the request running alone, or of the one that left work running. */
  private plain = EMPTY;
  /** Requests begun and not ended, while the variable serves. */
  private open = 0;
  /** Work outlives its request: the variable is that work's for good, later requests isolated. */
  private held = false;
  /**
   * The open runs and requests, innermost last, each with the registered work (DynamoDB requests,
   * retry waits) started within it and not yet settled.
   */
  private readonly frames: { pending: number }[] = [];

  constructor(oneAtATime: boolean) {
    this.storage = oneAtATime ? undefined : new AsyncLocalStorage<Values>();
  }

  /**
   * Opens a frame. Ending it (values `inner`, back to `outer`) keeps the variable instead when
   * work left running may still read it: work started within the frame still pending, or a
   * variable changed by another run (two at once, not nested). Neither can be undone, so later
   * requests are isolated.
   */
  private enter() {
    const frame = { pending: 0 };
    this.frames.push(frame);
    return (inner: Values, outer: Values) => {
      this.frames.splice(this.frames.lastIndexOf(frame), 1);
      if (frame.pending > 0 || this.plain !== inner) this.held = true;
      if (!this.held) this.plain = outer;
    };
  }

  /** Runs `fn` with `key` set to `value`, over the caller's values. */
  private runWith<R>(key: symbol, value: unknown, fn: () => R): R {
    // Work left running has no context of its own: its nested runs start from the variable.
    if (this.storage) return this.storage.run({ ...(this.storage.getStore() ?? this.plain), [key]: value }, fn);
    const outer = this.plain;
    const inner = (this.plain = { ...outer, [key]: value });
    const leave = this.enter();
    try {
      return settle(fn(), () => leave(inner, outer));
    } catch (err) {
      leave(inner, outer);
      throw err;
    }
  }

  // Arrow properties: the process's scopes hand these out as plain functions.
  readonly value = <T>(name: string): ScopedValue<T> => {
    const key = Symbol(name);
    return {
      run: (value, fn) => this.runWith(key, value, fn),
      get: () => ((this.storage?.getStore() ?? this.plain) as Record<symbol, unknown>)[key] as T | undefined,
    };
  };

  readonly request = <R>(fn: () => Promise<R>): Promise<R> => {
    if (!this.storage && (this.open > 0 || this.held)) this.storage = new AsyncLocalStorage<Values>();
    // Never from the values of work left running, which has no context.
    if (this.storage) return this.storage.run(this.storage.getStore() ?? EMPTY, fn);
    this.open += 1;
    const outer = this.plain;
    const leave = this.enter();
    // Every run of the request has ended by now: the variable is back to where it started.
    const done = () => {
      this.open -= 1;
      leave(outer, outer);
    };
    try {
      return settle(fn(), done);
    } catch (err) {
      done();
      throw err;
    }
  };

  readonly outlive = (): void => {
    // Called within the request, before any of its runs ends: the variable holds all its values.
    if (!this.storage) this.held = true;
  };

  readonly work = <T>(work: Promise<T>): Promise<T> => {
    if (this.storage || this.frames.length === 0) return work;
    const within = [...this.frames];
    for (const f of within) f.pending += 1;
    const done = () => {
      for (const f of within) f.pending -= 1;
    };
    work.then(done, done);
    return work;
  };

  readonly isolated = (): boolean => this.storage !== undefined;
}

/**
 * A standard Lambda execution environment: the runtime API hands it one invocation at a time.
 * Lambda Managed Instances hand it several and set AWS_LAMBDA_MAX_CONCURRENCY (Lambda's own
 * invocation store reads the variable's presence the same way).
 */
export function handedOneAtATime(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.AWS_LAMBDA_RUNTIME_API) && env.AWS_LAMBDA_MAX_CONCURRENCY === undefined;
}

const scopes = requestScopes(handedOneAtATime(process.env));

export const scopedValue = scopes.value;
/** Runs one request in a scope of its own. */
export const inRequestScope = scopes.request;
/** Keeps the current request's values for its work, which goes on after it answers. */
export const outliveRequest = scopes.outlive;
/** Registers work of the current request (a DynamoDB request, a retry wait); returns it. */
export const requestWork = scopes.work;
/** Whether this process keeps requests apart with an AsyncLocalStorage. */
export const requestsIsolated = scopes.isolated;
