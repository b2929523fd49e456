// Retries and the request's time: backoff, the durations of recent steps, retrying lost races and
// fanning work out, none of it started when it could not finish before the deadline.
import { remainingMs } from '#lib/runtime/deadline.js';
import { requestWork } from '#lib/runtime/scope.js';
import { Busy, ConflictError, Contention } from '#lib/contract/errors.js';

/**
 * A step refused because the request would run out of time first: nothing was written, and the
 * client is told the server was too busy (503 with Retry-After), not that it lost a race.
 */
export class OutOfTime extends Busy {}

/** A retry's wait, as work of the request (lib/runtime/scope.ts). */
export const sleep = (ms: number) => requestWork(new Promise<void>((ok) => setTimeout(ok, ms)));

/**
 * How long a kind of step took lately (the last `keep`, none older than `maxAgeMs`), for guessing
 * whether the next one still fits in the request's time: the longest of them, and never less than
 * a floor. A step that is refused records no time, so only age can lower the guess after a stall:
 * without it, one slow spike would refuse every later step of the process for good.
 */
export class Durations {
  private readonly recent: { ms: number; at: number }[] = [];
  constructor(
    private readonly floorMs: number,
    private readonly keep = 20,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {}
  add(ms: number, now = Date.now()): void {
    this.recent.push({ ms, at: now });
    if (this.recent.length > this.keep) this.recent.shift();
  }
  estimate(now = Date.now()): number {
    while (this.recent.length && now - this.recent[0]!.at > this.maxAgeMs) this.recent.shift();
    let longest = this.floorMs;
    for (const { ms } of this.recent) if (ms > longest) longest = ms;
    return longest;
  }
  /** Throws OutOfTime unless a step (plus `waitMs` before it) can still finish before the deadline. */
  ensure(what: string, waitMs = 0): void {
    if (remainingMs() < waitMs + this.estimate()) throw new OutOfTime(`Not enough time left to ${what}`);
  }
  /** Runs `fn` if it can still finish in time, and records how long it took. */
  async time<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.ensure(what);
    const started = Date.now();
    try {
      return await fn();
    } finally {
      this.add(Date.now() - started);
    }
  }
}

/** A random wait below `min(capMs, baseMs * 2^(n-1))` ("full jitter" exponential backoff). */
export const backoff = (n: number, baseMs: number, capMs: number) => Math.random() * Math.min(capMs, baseMs * 2 ** Math.max(0, n - 1));

export interface RetryOptions {
  /** Most attempts (default 50); the deadline usually ends the loop first. */
  attempts?: number;
  /** The first wait's ceiling and the largest ceiling, in ms (full jitter below it). */
  baseMs?: number;
  capMs?: number;
  /** The least time an attempt is expected to take, whatever the attempts so far took. */
  floorMs?: number;
}

/**
 * The end of retries that ran out of time: the last lost race when another request really changed
 * what the attempt read (409: the client re-reads), else OutOfTime (503: the server was busy).
 */
const outOfTime = (message: string, previous: ConflictError | undefined): Error =>
  previous && !(previous instanceof Contention) ? previous : new OutOfTime(message, { cause: previous });

/**
 * Retries `fn` while it loses races (ConflictError), with jittered exponential backoff, as long
 * as the request has time for another attempt: an attempt is expected to take as long as the
 * longest one so far (at least `floorMs`), and none is started, nor waited for, that could not
 * finish before the deadline (lib/runtime/deadline.ts). Out of time, it throws the last lost race
 * (409) or OutOfTime (503 `rest_busy`), see outOfTime: every attempt wrote all or nothing, so
 * nothing was written. `fn` gets the attempt number and the error that ended the previous attempt.
 */
export async function withRetry<T>(fn: (attempt: number, previous?: ConflictError) => Promise<T>, options: RetryOptions | number = {}): Promise<T> {
  const { attempts = 50, baseMs = 10, capMs = 400, floorMs = 100 } = typeof options === 'number' ? { attempts: options } : options;
  let longest = 0;
  let previous: ConflictError | undefined;
  for (let i = 1; ; i++) {
    const estimate = Math.max(floorMs, longest);
    if (remainingMs() < estimate) throw outOfTime(`Not enough time left for attempt ${i}`, previous);
    const started = Date.now();
    try {
      return await fn(i, previous);
    } catch (err) {
      longest = Math.max(longest, Date.now() - started);
      // A later attempt refused for time (its commit would not finish) still follows a lost race.
      if (err instanceof OutOfTime && previous && !(previous instanceof Contention)) throw previous;
      if (!(err instanceof ConflictError) || i >= attempts) throw err;
      previous = err;
      const wait = backoff(i, baseMs, capMs);
      if (remainingMs() < wait + Math.max(floorMs, longest)) throw outOfTime(`Not enough time left after attempt ${i}`, err);
      await sleep(wait);
    }
  }
}

/** What a fan-out did: the answers of the items that ran, the failures, and how many were not started. */
interface FanOutRun<R> {
  results: R[];
  failures: unknown[];
  skipped: number;
}

/**
 * Runs `fn` on every item, `width` at a time, starting a group only while the request still has
 * time to finish it (as long as the longest group so far took, at least `floorMs`) with `reserveMs`
 * to spare. A started item always runs to its end; the others are tried even if some fail.
 */
async function runWhileTime<T, R>(list: readonly T[], width: number, fn: (item: T) => Promise<R>, floorMs: number, reserveMs: () => number): Promise<FanOutRun<R>> {
  const times = new Durations(floorMs);
  const run: FanOutRun<R> = { results: [], failures: [], skipped: 0 };
  for (let i = 0; i < list.length; i += width) {
    if (remainingMs() < times.estimate() + reserveMs()) {
      run.skipped = list.length - i;
      break;
    }
    const started = Date.now();
    const done = await Promise.allSettled(list.slice(i, i + width).map(fn));
    times.add(Date.now() - started);
    for (const d of done) {
      if (d.status === 'fulfilled') run.results.push(d.value);
      else run.failures.push(d.reason);
    }
  }
  return run;
}

const fanOutError = (what: string, total: number, failed: number, skipped: number, cause: unknown) => {
  const parts = [failed ? `${failed} failed` : '', skipped ? `${skipped} not started before the deadline` : ''].filter(Boolean);
  return new Error(`${what}: of ${total}, ${parts.join(' and ')}`, { cause });
};

/**
 * Runs `fn` on every item, `width` at a time (a fan-out: the events of a venue, say), starting a
 * group only while the request still has time to finish it. Throws at the end when any failed or
 * was not started, naming how many: the caller answers with an error, and repeating the request
 * completes the work.
 */
export async function fanOut<T, R>(list: readonly T[], width: number, fn: (item: T) => Promise<R>, what: string, floorMs = 100): Promise<R[]> {
  const { results, failures, skipped } = await runWhileTime(list, width, fn, floorMs, () => 0);
  if (failures.length || skipped) throw fanOutError(what, list.length, failures.length, skipped, failures[0]);
  return results;
}

/**
 * A fan-out whose remainder has another owner (the stream consumer finishes what a request
 * leaves): groups start only while `reserveMs()` is left over for the request's own writes, the
 * rest is left, and the answer is how many items were. Throws only when a started item failed.
 */
export async function fanOutOrLeave<T>(
  list: readonly T[],
  width: number,
  fn: (item: T) => Promise<unknown>,
  what: string,
  reserveMs: () => number,
  floorMs = 100,
): Promise<number> {
  const { failures, skipped } = await runWhileTime(list, width, fn, floorMs, reserveMs);
  if (failures.length) throw fanOutError(what, list.length, failures.length, 0, failures[0]);
  return skipped;
}
