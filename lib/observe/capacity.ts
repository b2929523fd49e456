// The DynamoDB requests and capacity units consumed, as lib/store/db.ts's client middleware records
// them. One tally covers the whole process (tests and benchmarks reset and read it); a request
// may open its own scope, which is exact even when the local server runs requests concurrently.
// Kept apart from lib/store/db.ts so that functions without table access do not bundle the SDK.
import { scopedValue } from '#lib/runtime/scope.js';

export interface CapacityTally {
  requests: number;
  read: number;
  write: number;
  /** Request counts by command name, e.g. { QueryCommand: 2, BatchGetCommand: 1 }. */
  commands: Record<string, number>;
  /**
   * Sequential round trips: a request's stage is one more than the highest stage of the requests
   * that had finished when it started, and this is the highest stage seen. Exact when every round
   * trip takes about as long, as on AWS (tests add a fixed latency to each request to measure it).
   */
  stages: number;
  /** The highest stage among finished requests. */
  finishedStage: number;
}

export interface Consumed {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

export const emptyTally = (): CapacityTally => ({ requests: 0, read: 0, write: 0, commands: {}, stages: 0, finishedStage: 0 });

const tally: CapacityTally = emptyTally();
const scopes = scopedValue<CapacityTally>('capacity');

export const capacity = {
  reset(): void {
    Object.assign(tally, emptyTally());
  },
  snapshot(): CapacityTally {
    return { ...tally, commands: { ...tally.commands } };
  },
  /** Runs `fn` with `scope` adding up every DynamoDB request made inside it (and the process tally still counting). */
  scoped<T>(scope: CapacityTally, fn: () => T): T {
    return scopes.run(scope, fn);
  },
};

function add(to: CapacityTally, command: string, read: number, write: number): void {
  to.requests += 1;
  to.commands[command] = (to.commands[command] ?? 0) + 1;
  to.read += read;
  to.write += write;
}

/** Marks a request's start; `finish` marks its end (called by lib/store/db.ts's client middleware). */
export function startRequest(): { finish(): void } {
  const tallies = [tally, scopes.get()].filter((t): t is CapacityTally => t !== undefined);
  const stages = tallies.map((t) => {
    const stage = t.finishedStage + 1;
    t.stages = Math.max(t.stages, stage);
    return stage;
  });
  return {
    finish() {
      for (const [i, t] of tallies.entries()) t.finishedStage = Math.max(t.finishedStage, stages[i]!);
    },
  };
}

/** Records one DynamoDB response: its command name and the capacity it reports. */
export function recordConsumed(command: string, consumed: Consumed | Consumed[] | undefined): void {
  let read = 0;
  let write = 0;
  for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
    const r = c.ReadCapacityUnits ?? 0;
    const w = c.WriteCapacityUnits ?? 0;
    // Reads report CapacityUnits only (no split) in some responses.
    if (r || w) {
      read += r;
      write += w;
    } else if (command.startsWith('Get') || command.startsWith('Query') || command.startsWith('BatchGet') || command.startsWith('TransactGet')) {
      read += c.CapacityUnits ?? 0;
    } else {
      write += c.CapacityUnits ?? 0;
    }
  }
  add(tally, command, read, write);
  const scope = scopes.get();
  if (scope) add(scope, command, read, write);
}
