// How many invocations the local runtime runs at once. On AWS every concurrent invocation has a
// container and a processor of its own, and its function's clock starts once that container is
// ready (a burst waits for cold starts first). Here one process on a few cores serves them all: a
// burst of 200 started at once would share the event loop and DynamoDB Local two hundred ways, so
// every one of them would run out of its function's time together. So invocations take one of a
// few slots, and the rest wait in order, before their clock starts, as a burst waits for
// containers on AWS. A request that waited so long that its function could no longer finish within
// API Gateway's integration timeout is answered without running (a throttled invocation on AWS):
// nothing of it was written, and the client may send it again.
import { availableParallelism } from 'node:os';

/** API Gateway's integration timeout (HTTP APIs: 30 s at most). */
export const INTEGRATION_TIMEOUT_MS = 30_000;

/** Invocations run at once: LOCAL_CONCURRENCY, else 8 per core. */
export function slotCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LOCAL_CONCURRENCY?.trim();
  if (!raw) return 8 * availableParallelism();
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new Error(`LOCAL_CONCURRENCY must be a whole number of at least 1, got "${raw}".`);
  return n;
}

export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}

  /** Invocations running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Waits for a slot at most `maxWaitMs`: a function to give it back, or undefined when the wait
   * ran out (the caller answers without running anything).
   */
  async take(maxWaitMs: number): Promise<(() => void) | undefined> {
    if (this.running < this.size) return this.hold();
    let resolveTurn!: () => void;
    const turn = new Promise<void>((ok) => (resolveTurn = ok));
    this.waiting.push(resolveTurn);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((ok) => (timer = setTimeout(() => ok('late'), Math.max(0, maxWaitMs))));
    const outcome = await Promise.race([turn.then(() => 'turn' as const), late]);
    clearTimeout(timer);
    if (outcome === 'turn') return this.hold(true);
    // Left the queue; a turn handed to it at the same moment passes on.
    const i = this.waiting.indexOf(resolveTurn);
    if (i >= 0) this.waiting.splice(i, 1);
    else this.passOn();
    return undefined;
  }

  /** A slot taken (`handed`: given by the previous holder, who did not free it). */
  private hold(handed = false): () => void {
    if (!handed) this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.passOn();
    };
  }

  /** Hands a freed slot to the next waiting invocation, or frees it. */
  private passOn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** The process's slots, sized on first use. */
let shared: Slots | undefined;
export const invocationSlots = (): Slots => (shared ??= new Slots(slotCount()));
