// Id sequences: atomic counters, as WordPress's auto-increment ids. A process reserves ids in
// ranges (one UpdateItem ADD of the range's size) and hands them out itself, so that a burst of
// creates sends a few counter writes rather than one each: the counter is one item, which DynamoDB
// writes at most 1,000 times a second. Ids need not be dense (what a process leaves of a range is
// a gap, as WordPress leaves gaps), nor ordered by creation across processes; one process hands
// them out in order.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys, type Sequence } from './keys.js';
import { raiseTo } from './raise.js';

/** Ids a range holds at most beyond what callers are waiting for. */
const MAX_SPARE = 64;

interface Reserved {
  /** The ids `[next, end)` are reserved and not handed out. */
  next: number;
  end: number;
  /** Ids callers are waiting for. */
  wanted: number;
  /** The reservation in flight, which every waiting caller shares. */
  reserving?: Promise<void>;
  /** How many ids the process has handed out. */
  taken: number;
}

const reserved = new Map<string, Reserved>();

/** `size` more ids of the sequence: the last `size` the counter reached. */
async function reserve(sequence: Sequence, r: Reserved, size: number): Promise<void> {
  const out = await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': size },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes!.value);
  // Only an exhausted range is replaced (or one too short for a caller's n consecutive ids).
  r.next = last - size + 1;
  r.end = last + 1;
}

/**
 * The first of `n` consecutive new integers of a sequence (gaps are possible, as in WordPress).
 * Taken from this process's reserved range; when it is used up, the callers waiting share one
 * reservation the size of what they wait for, plus as many as the process has taken (at most
 * MAX_SPARE): a new process takes one id at a time, and one that has created much writes the
 * counter once per MAX_SPARE creates (what it leaves unused when it ends is a gap).
 */
export async function nextId(sequence: Sequence, n = 1): Promise<number> {
  const key = `${config().tableName}|${sequence}`;
  let r = reserved.get(key);
  if (!r) reserved.set(key, (r = { next: 0, end: 0, wanted: 0, taken: 0 }));
  r.wanted += n;
  try {
    for (;;) {
      if (r.end - r.next >= n) {
        const id = r.next;
        r.next += n;
        r.taken += n;
        return id;
      }
      if (!r.reserving) {
        const state = r;
        const size = state.wanted + Math.min(MAX_SPARE, state.taken);
        state.reserving = reserve(sequence, state, size).finally(() => (state.reserving = undefined));
      }
      await r.reserving;
    }
  } finally {
    r.wanted -= n;
  }
}

/**
 * Makes the sequence continue after `id` (an imported record's): the counter is raised to it
 * unless it is past it already. Ranges this process reserved before are dropped.
 */
export async function continueAfter(sequence: Sequence, id: number): Promise<void> {
  reserved.delete(`${config().tableName}|${sequence}`);
  await raiseTo(keys.counter(sequence), 'value', id);
}
