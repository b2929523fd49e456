// A per-call trace of the shared DynamoDB client (lib/store/db.ts), added from outside as one more
// middleware: for each command, what it read (index, partition, keys), how many items DynamoDB
// looked at and returned, and the read capacity it consumed. lib/store/db.ts's tally gives the totals;
// this says which call they came from.
import { db } from '#lib/store/db.js';

export interface TraceEntry {
  command: string;
  /** `gsi2 LIST#event#en#publish`, `base COUNT#LIST#event#en#publish`, or `12 keys`. */
  target: string;
  /** Items DynamoDB evaluated (Query ScannedCount) and returned (Count, or BatchGet items). */
  scanned?: number;
  returned?: number;
  limit?: number;
  select?: string;
  read: number;
}

const entries: TraceEntry[] = [];
/** The client the trace is on: the shared client is rebuilt when the endpoint changes (a new DynamoDB Local). */
let traced: ReturnType<typeof db> | undefined;

/** Whether the document client sent a request (it marks the requests it marshalled); the plain reads' (lib/store/reads.ts) carry marshalled values. */
export const sentByDocumentClient = (context: object): boolean =>
  (context as { __smithy_context?: { features?: Record<string, string> } }).__smithy_context?.features?.DDB_MAPPER === 'd';

/** A value as a request carries it, as text: plain (the document client's) or marshalled (`{ S }`, lib/store/reads.ts). */
export const plain = (v: unknown): string => {
  if (v && typeof v === 'object' && 'S' in (v as Record<string, unknown>)) return String((v as { S: unknown }).S);
  return String(v);
};

interface Consumed {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
}

function readUnits(c: Consumed | Consumed[] | undefined): number {
  let n = 0;
  for (const x of c === undefined ? [] : Array.isArray(c) ? c : [c]) n += x.ReadCapacityUnits ?? x.CapacityUnits ?? 0;
  return n;
}

/** Installs the trace on the shared client, once per client: call it again after the endpoint changed. */
export function installTrace(): void {
  if (traced === db()) return;
  traced = db();
  traced.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      const result = await next(args);
      const out = result.output as Record<string, any>;
      const command = String(context.commandName ?? 'Command').replace(/Command$/, '');
      let target = '';
      if (command === 'Query') {
        const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
        const partition = values[':p'] ?? values[':pk'];
        target = `${input.IndexName ?? 'base'} ${plain(partition)}`;
      } else if (command === 'BatchGetItem') {
        const req = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>)[0];
        target = `${req?.Keys?.length ?? 0} keys`;
      } else if (command === 'GetItem') {
        target = `${plain(input.Key?.pk)} ${plain(input.Key?.sk)}`;
      }
      const returned =
        command === 'BatchGetItem'
          ? Object.values((out.Responses ?? {}) as Record<string, unknown[]>).reduce((s, l) => s + l.length, 0)
          : command === 'Query'
            ? out.Count
            : command === 'GetItem'
              ? out.Item
                ? 1
                : 0
              : undefined;
      entries.push({
        command,
        target,
        ...(out.ScannedCount !== undefined ? { scanned: out.ScannedCount as number } : {}),
        ...(returned !== undefined ? { returned } : {}),
        ...(input.Limit !== undefined ? { limit: input.Limit as number } : {}),
        ...(input.Select !== undefined ? { select: input.Select as string } : {}),
        read: readUnits(out.ConsumedCapacity),
      });
      return result;
    },
    { step: 'initialize', name: 'benchTrace' },
  );
}

export const trace = {
  reset(): void {
    entries.length = 0;
  },
  snapshot(): TraceEntry[] {
    return entries.map((e) => ({ ...e }));
  },
};

/** One line per call: `Query gsi2 LIST#event#en#publish  scanned 18 returned 18 (Limit 18)  1.5 RCU`. */
export function formatTrace(list: TraceEntry[]): string[] {
  return list.map((e) => {
    const parts = [`${e.command} ${e.target}`.trim()];
    if (e.select) parts.push(e.select);
    if (e.scanned !== undefined) parts.push(`scanned ${e.scanned}`);
    if (e.returned !== undefined) parts.push(`returned ${e.returned}`);
    if (e.limit !== undefined) parts.push(`Limit ${e.limit}`);
    parts.push(`${e.read} RCU`);
    return parts.join('  ');
  });
}
