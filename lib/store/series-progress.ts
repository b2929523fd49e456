// How far the writing of a series' occurrences got, on its first event, and where a delete by
// scope ended it: conditional UpdateItems of the `series` map (and the rules), which touch nothing
// the event's indexes derive from.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys } from './keys.js';
import type { SeriesEdit, SeriesRules, SeriesSplit, SeriesStop } from './items.js';
import { requireVersion, settleChecked, type Checked } from './precondition.js';
import { update, type TransactItem } from './transactions.js';

/**
 * Records that the occurrences before `to` exist, if the first event still says `from` of `total`
 * (a redelivered change that got there first, a deleted first event, or a delete by scope that
 * ended the series since, leave it as it is). Whether it did.
 */
export async function advanceSeries(id: number, from: number, to: number, total: number): Promise<boolean> {
  const { Update } = advanceItem(id, from, to, total);
  try {
    await db().send(new UpdateCommand(Update!));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** advanceSeries as an item of the transaction that writes those occurrences. */
export const advanceItem = (id: number, from: number, to: number, total: number): TransactItem =>
  update(
    keys.post(id),
    'SET #series.#made = :to',
    { ':from': from, ':to': to, ':total': total },
    { '#series': 'series', '#made': 'made', '#total': 'total' },
    '#series.#made = :from AND #series.#total = :total',
  );

/**
 * Records that the split `split` of the series of first event `id` was carried out, if it is still
 * the split the first event records. Its `version` stays: nothing an answer shows changed.
 */
export async function markSplitDone(id: number, split: Pick<SeriesSplit, 'at' | 'to'>): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.post(id),
        UpdateExpression: 'SET #series.#split.#done = :done',
        ConditionExpression: '#series.#split.#at = :at AND #series.#split.#to = :to',
        ExpressionAttributeNames: { '#series': 'series', '#split': 'split', '#done': 'done', '#at': 'at', '#to': 'to' },
        ExpressionAttributeValues: { ':done': true, ':at': split.at, ':to': split.to },
      }),
    );
  } catch (err) {
    // A later split (or an end) replaced it: that one's own record says where it stands.
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}

/**
 * Ends the series of first event `id` as read at `version` with `made` occurrences written: its
 * rules become `recurrence`, its total `total`, and `stop` says which of its events go (or `split`,
 * which of them move to another series, for an edit by scope following). A change of
 * `total` makes an occurrence chunk being written find out (advanceSeries fails). Bumps the
 * record's version (its rules are shown). False when the event changed since it was read; with
 * `check`, it must also be the version If-Match names.
 */
export function endSeries(
  id: number,
  read: { version: number; made: number },
  end: { total: number; recurrence: string[]; modified: { modified: string; modified_utc: string } } & ({ stop: SeriesStop } | { split: SeriesSplit }),
  check: Checked | undefined,
): Promise<boolean> {
  const [mark, value] = 'stop' in end ? ['stop', end.stop] : ['split', end.split];
  return rewriteSeries(id, read, { recurrence: end.recurrence, modified: end.modified, series: { total: end.total, [mark]: value } }, check);
}

/**
 * Gives the series of first event `id`, as read, new rules (an edit by scope all): `total`
 * occurrences from `asOf`, of which only the first event is known to exist (`made` 1, so that the
 * occurrences are written again, each found when it exists, lib/logic/series.ts), and `rules`
 * marks the change whose events take them. As endSeries otherwise.
 */
export function changeRules(
  id: number,
  read: { version: number; made: number },
  next: { total: number; recurrence: string[]; asOf: string; rules: SeriesRules; modified: { modified: string; modified_utc: string } },
  check: Checked | undefined,
): Promise<boolean> {
  const series = { total: next.total, made: 1, asOf: next.asOf, rules: next.rules };
  return rewriteSeries(id, read, { recurrence: next.recurrence, modified: next.modified, series }, check);
}

/** Sets a first event's rules and `series` entries, conditionally on the version and `made` read. */
async function rewriteSeries(
  id: number,
  read: { version: number; made: number },
  to: { recurrence: string[]; modified: { modified: string; modified_utc: string }; series: Record<string, unknown> },
  check: Checked | undefined,
): Promise<boolean> {
  const names: Record<string, string> = {
    '#series': 'series',
    '#made': 'made',
    '#recurrence': 'recurrence',
    '#modified': 'modified',
    '#modified_utc': 'modified_utc',
    '#iv': 'indexVersion',
    '#version': 'version',
  };
  const values: Record<string, unknown> = {
    ':recurrence': to.recurrence,
    ':modified': to.modified.modified,
    ':modified_utc': to.modified.modified_utc,
    ':one': 1,
    ':version': read.version,
    ':made': read.made,
  };
  const sets = Object.entries(to.series).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#series.#s${i} = :s${i}`;
  });
  const update = requireVersion(
    {
      TableName: config().tableName,
      Key: keys.post(id),
      UpdateExpression: `SET ${sets.join(', ')}, #recurrence = :recurrence, #modified = :modified, #modified_utc = :modified_utc, #iv = if_not_exists(#iv, #version), #version = #version + :one`,
      ConditionExpression: '#version = :version AND #series.#made = :made',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    check,
  );
  try {
    await settleChecked(check, () => db().send(new UpdateCommand(update)));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * Records on first event `id` the edit by scope all that its series' events take (bookkeeping, as
 * `made`: the version stays). False when the event is gone.
 */
export async function recordSeriesEdit(id: number, edit: SeriesEdit): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.post(id),
        UpdateExpression: 'SET #series.#edit = :edit',
        ConditionExpression: 'attribute_exists(#series)',
        ExpressionAttributeNames: { '#series': 'series', '#edit': 'edit' },
        ExpressionAttributeValues: { ':edit': edit },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * Moves the horizon of the series of first event `id`, whose `total` occurrences all exist: its
 * rules, followed from `asOf`, give `total` more. Only while no end is recorded and nothing is being
 * written; the change it makes brings the writing of the new occurrences (lib/logic/series.ts).
 * Whether it did.
 */
export async function moveHorizon(id: number, read: { total: number }, next: { total: number; asOf: string }): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.post(id),
        UpdateExpression: 'SET #series.#total = :next, #series.#asOf = :asOf',
        ConditionExpression: '#series.#made = :total AND #series.#total = :total AND attribute_not_exists(#series.#stop)',
        ExpressionAttributeNames: { '#series': 'series', '#made': 'made', '#total': 'total', '#asOf': 'asOf', '#stop': 'stop' },
        ExpressionAttributeValues: { ':total': read.total, ':next': next.total, ':asOf': next.asOf },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Lists (or no longer lists) a series among those whose rules have no end. Idempotent. */
export async function markOpenSeries(id: number, open: boolean): Promise<void> {
  const Key = keys.openSeries(id);
  const TableName = config().tableName;
  if (open) await db().send(new PutCommand({ TableName, Item: { ...Key, seriesId: id } }));
  else await db().send(new DeleteCommand({ TableName, Key }));
}
