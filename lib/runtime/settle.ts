// Work a request runs side by side. A request must not answer with any of it still running: Lambda
// may freeze the process once the answer is out and thaw it for the next invocation, where the
// rest would run on, spending that invocation's time (and, where the request's scope is a plain
// variable, reading that invocation's values: lib/runtime/scope.ts).

type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

/** Promise.all, but it rejects only once every promise has settled, with the first failure in order. */
export async function waitAll<T extends readonly unknown[] | []>(promises: T): Promise<Settled<T>> {
  const results = await Promise.allSettled(promises as readonly unknown[]);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Settled<T>;
}

/** Promises started beside a request's main line, awaited later or not at all. */
export interface SideWork {
  /** Starts `promise` aside: its rejection is reported where it is awaited, and nowhere if it never is. */
  start<T>(promise: Promise<T>): Promise<T>;
  /** Waits until everything started aside has settled. */
  settled(): Promise<void>;
}

function sideWork(): SideWork {
  const started: Promise<unknown>[] = [];
  return {
    start(promise) {
      promise.catch(() => undefined);
      started.push(promise);
      return promise;
    },
    async settled() {
      // Side work may start more side work while it is awaited.
      for (let seen = -1; seen !== started.length; ) {
        seen = started.length;
        await Promise.allSettled(started);
      }
    },
  };
}

/**
 * Runs `fn` with a side-work list, and answers only once its side work has settled: after a
 * failure, or when the answer did not need all of it (it is normally done by then).
 */
export async function withSideWork<T>(fn: (side: SideWork) => Promise<T>): Promise<T> {
  const side = sideWork();
  try {
    return await fn(side);
  } finally {
    await side.settled();
  }
}
