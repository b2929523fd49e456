// The conditional items of an event's transaction that are more than a put or a delete: its
// record's update, its count buckets' updates, and the counts and checks of the records it links
// (lib/logic/event-writes.ts plans which of them a write needs, and why).
import type { Key } from './reads.js';
import type { EventItem } from './items.js';
import { keys } from './keys.js';
import { update, type TransactItem } from './transactions.js';
import { DURATIONS } from './durations.js';

/** Attributes a record write never sets from the record it computed (keys and counters). */
const NOT_COPIED = new Set(['pk', 'sk', 'version', 'indexVersion']);

/**
 * The condition that the stored event still has the index state `old` was read with. Every write
 * that changes what the event's index items, counts and links derive from (or its cards) sets
 * `indexVersion` to the `version` it writes; updates of record-only fields (title, cost…, see
 * lib/logic/events.ts) bump only `version`, so they do not make this write retry. A record
 * without `indexVersion` was last written whole (created, or by an older version of this code),
 * at its `version`.
 */
export function sameIndexState(old: EventItem) {
  return {
    ConditionExpression: '(attribute_not_exists(#iv) AND #version = :iv) OR #iv = :iv',
    ExpressionAttributeNames: { '#iv': 'indexVersion', '#version': 'version' },
    ExpressionAttributeValues: { ':iv': old.indexVersion ?? old.version } as Record<string, unknown>,
  };
}

/**
 * The update of an event's record from `old` to `next`: it sets only the attributes that differ
 * (and removes those `next` dropped), so a field another writer changed since `old` was read and
 * that this write does not change keeps that writer's value (the last writer wins per field); it
 * bumps `version` and sets `indexVersion` to it. It holds only if the index state is still `old`'s.
 */
export function recordUpdate(old: EventItem, next: EventItem): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':one': 1 };
  const sets = ['#version = #version + :one', '#iv = #version + :one'];
  const removes: string[] = [];
  const before: Record<string, unknown> = { ...old };
  const after: Record<string, unknown> = { ...next };
  let n = 0;
  for (const [name, value] of Object.entries(after)) {
    if (NOT_COPIED.has(name) || value === undefined || JSON.stringify(before[name]) === JSON.stringify(value)) continue;
    names[`#a${n}`] = name;
    values[`:a${n}`] = value;
    sets.push(`#a${n} = :a${n}`);
    n++;
  }
  for (const name of Object.keys(before)) {
    if (NOT_COPIED.has(name) || after[name] !== undefined) continue;
    names[`#a${n}`] = name;
    removes.push(`#a${n}`);
    n++;
  }
  const condition = sameIndexState(old);
  return {
    Update: {
      TableName: '',
      Key: keys.post(old.id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: { ...names, ...condition.ExpressionAttributeNames },
      ExpressionAttributeValues: { ...values, ...condition.ExpressionAttributeValues },
      // A lost race hands the retry the record as it is now (StaleItem), saving it a read.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The update of one month's count bucket: the month's count `n` and each day's `dDD` by their
 * deltas, and, with `durationClass`, the duration class its events reach (lib/store/durations.ts).
 */
export function bucketUpdate(key: Key, days: readonly (readonly [string, number])[], durationClass?: number): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  if (days.length) {
    names['#n'] = 'n';
    values[':z'] = 0;
    values[':n'] = days.reduce((s, [, d]) => s + d, 0);
    sets.push('#n = if_not_exists(#n, :z) + :n');
  }
  for (const [day, d] of days) {
    names[`#${day}`] = day;
    values[`:${day}`] = d;
    sets.push(`#${day} = if_not_exists(#${day}, :z) + :${day}`);
  }
  let expression = sets.length ? `SET ${sets.join(', ')}` : '';
  if (durationClass !== undefined) {
    names['#ds'] = DURATIONS;
    values[':ds'] = new Set([durationClass]);
    expression += `${expression ? ' ' : ''}ADD #ds :ds`;
  }
  return update(key, expression, values, names);
}

/** What a linked record must still be for the write to hold: it exists, and maybe more. */
export interface LinkedState {
  /** Of this kind, and not in the trash (a record newly linked). */
  kind?: 'venue' | 'organizer';
  /** With this content revision (undefined: none), the one the event's card was taken from. */
  rev?: { is: unknown };
}

function linkedCondition(state: LinkedState) {
  const conditions = ['attribute_exists(pk)'];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (state.kind) {
    conditions.push('kind = :k AND #s <> :t');
    Object.assign(values, { ':k': state.kind, ':t': 'trash' });
    names['#s'] = 'status';
  }
  if (state.rev) {
    names['#rev'] = 'rev';
    if (state.rev.is === undefined) conditions.push('attribute_not_exists(#rev)');
    else conditions.push('#rev = :rev'), (values[':rev'] = state.rev.is);
  }
  return { condition: conditions.join(' AND '), names, values };
}

/**
 * A linked record's count moved by `delta` (a term's `count`, a place's `linkedEvents`), while it
 * is in `state`. `versioned` bumps its `version` too, so that a concurrent whole-record update of
 * it retries (a shard of a split record has no version).
 */
export function countAdd(key: Key, attribute: 'count' | 'linkedEvents', delta: number, versioned: boolean, state: LinkedState = {}): TransactItem {
  const { condition, names, values } = linkedCondition(state);
  return update(
    key,
    `ADD #c :d${versioned ? ', #v :one' : ''}`,
    { ':d': delta, ...(versioned ? { ':one': 1 } : {}), ...values },
    { '#c': attribute, ...(versioned ? { '#v': 'version' } : {}), ...names },
    condition,
  );
}

/** A check that a linked record is in `state`, where its count does not move. */
export function linkedCheck(key: Key, state: LinkedState = {}): TransactItem {
  const { condition, names, values } = linkedCondition(state);
  return {
    ConditionCheck: {
      TableName: '',
      Key: key,
      ConditionExpression: condition,
      // DynamoDB refuses empty expression maps (a record without `rev` needs no value).
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}
