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

/** The read units the current API request has used so far; undefined outside a request (no budget there). */
export function readSoFar(): number | undefined {
  return scopes.get()?.read;
}

/** The DynamoDB requests the current API request has sent so far; undefined outside a request (no budget there). */
export function requestsSoFar(): number | undefined {
  const scope = scopes.get();
  return scope && (spent.get(scope)?.started ?? 0);
}

/** What one API request may spend: lib/contract/budget.ts states it, lib/store/db.ts enforces it. */
export interface Budget {
  requests: number;
  readUnits: number;
}

/** A request's DynamoDB requests sent so far (its tally counts them as they end), and whether it changes records yet. */
interface Spent {
  started: number;
  writing: boolean;
  refused: boolean;
}
const spent = new WeakMap<CapacityTally, Spent>();

/** A refused DynamoDB request: the limit it would pass, and whether it is the API request's first refusal. */
export interface Refusal {
  limit: keyof Budget;
  first: boolean;
}

/** Commands that only read. */
const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

/**
 * Admits one more DynamoDB request (`command`, its command name) of the current API request, or
 * says which limit of `budget` it would pass. Only reads are refused: a write that was refused
 * could leave a change half made (or the idempotency record of a failed create behind). Outside
 * an API request's scope (the stream consumer, scripts) there is no budget. Nor is there once the
 * request sent its first transaction, which every change of a record is: refusing its later
 * reads would turn a stored change into an error answer, and writes bound their own work (the
 * linked events they rewrite in the request). The single-item writes of the caller's bookkeeping
 * and of the idempotency record do not lift the budget.
 */
export function admit(command: string, budget: Budget): Refusal | undefined {
  const scope = scopes.get();
  if (!scope) return undefined;
  let s = spent.get(scope);
  if (!s) spent.set(scope, (s = { started: 0, writing: false, refused: false }));
  if (command.startsWith('TransactWrite')) s.writing = true;
  const free = s.writing || !READS.test(command);
  const limit = free ? undefined : s.started >= budget.requests ? 'requests' : scope.read >= budget.readUnits ? 'readUnits' : undefined;
  if (limit) {
    const first = !s.refused;
    s.refused = true;
    return { limit, first };
  }
  s.started += 1;
  return undefined;
}
