// A DynamoDB stream record (as Lambda delivers it: NEW_AND_OLD_IMAGES, AttributeValue images,
// the time in epoch seconds) -> the Change of one record, or nothing for every other item of the
// table (slug guards, counters, links, index items, credentials, feed markers…).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { isLang } from '#lib/runtime/config.js';
import type { Change, ChangeAction, ChangeKind } from './change.js';

/**
 * The sort keys of records: events, venues and organizers (`POST`, kind in `kind`) and categories
 * and tags (`TERM`, kind in `taxonomy`). The stream's event filter (infra/stream.ts) and the local
 * poller pass only these, so the consumer is not woken for the writes of every helper item.
 */
export const RECORD_SORT_KEYS = ['POST', 'TERM'] as const;

/** The event source mapping's filter: records' stream records only (Lambda's filter pattern syntax). */
export const STREAM_FILTER_PATTERN = { dynamodb: { Keys: { sk: { S: [...RECORD_SORT_KEYS] } } } };

const PARTITION_PREFIX: Record<(typeof RECORD_SORT_KEYS)[number], string> = { POST: 'POST#', TERM: 'TERM#' };
const POST_KINDS = new Set<string>(['event', 'venue', 'organizer']);
const TAXONOMIES = new Set<string>(['category', 'tag']);

/** Whether the stream filter lets the record through (the same test as STREAM_FILTER_PATTERN). */
export function passesFilter(record: DynamoDBRecord): boolean {
  const sk = record.dynamodb?.Keys?.sk?.S;
  return sk !== undefined && (RECORD_SORT_KEYS as readonly string[]).includes(sk);
}

/** A record the consumer cannot make sense of: it fails (and is retried, then dead-lettered) rather than being skipped. */
export class UndecodableRecordError extends Error {
  constructor(record: DynamoDBRecord, why: string) {
    super(`Stream record ${record.dynamodb?.SequenceNumber ?? '?'} (${record.eventName ?? '?'} ${JSON.stringify(record.dynamodb?.Keys ?? {})}): ${why}`);
    this.name = 'UndecodableRecordError';
  }
}

/**
 * Lambda's JSON has binary values in base64; the SDK's unmarshall expects bytes. Nothing of ours
 * is binary today, but a record with a binary attribute must not decode into strings.
 */
function toSdk(value: StreamAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B, 'base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b, 'base64')) };
  if (value.L !== undefined) return { L: value.L.map(toSdk) };
  if (value.M !== undefined) return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, toSdk(v)])) };
  return value as AttributeValue;
}

/** An image as stored (numbers as numbers, sets as Sets). */
export function unmarshallImage(image: Record<string, StreamAttributeValue> | undefined): Record<string, unknown> | undefined {
  if (!image) return undefined;
  return unmarshall(Object.fromEntries(Object.entries(image).map(([k, v]) => [k, toSdk(v)])));
}

function actionOf(record: DynamoDBRecord, old: Record<string, unknown> | undefined, now: Record<string, unknown> | undefined): ChangeAction {
  switch (record.eventName) {
    case 'INSERT':
      return 'create';
    case 'REMOVE':
      return 'delete';
    case 'MODIFY': {
      // Terms have no status: every change of theirs is an update.
      const before = old?.status;
      const after = now?.status;
      if (after === 'trash' && before !== 'trash') return 'trash';
      if (before === 'trash' && after !== 'trash') return 'restore';
      return 'update';
    }
    default:
      throw new UndecodableRecordError(record, `unknown eventName ${String(record.eventName)}`);
  }
}

/** The Change of a record's stream record; undefined for an item that is not a record. */
export function decode(record: DynamoDBRecord): Change | undefined {
  const stream = record.dynamodb;
  const sk = stream?.Keys?.sk?.S;
  const pk = stream?.Keys?.pk?.S;
  if (!stream || sk === undefined || pk === undefined) return undefined;
  if (!(RECORD_SORT_KEYS as readonly string[]).includes(sk)) return undefined;
  // A record's own partition: an item elsewhere with this sort key is not a record.
  if (!pk.startsWith(PARTITION_PREFIX[sk as keyof typeof PARTITION_PREFIX])) return undefined;

  const old = unmarshallImage(stream.OldImage);
  const now = unmarshallImage(stream.NewImage);
  const image = record.eventName === 'REMOVE' ? old : now;
  if (!image) throw new UndecodableRecordError(record, `no ${record.eventName === 'REMOVE' ? 'old' : 'new'} image (the stream must be NEW_AND_OLD_IMAGES)`);
  if (record.eventName === 'MODIFY' && !old) throw new UndecodableRecordError(record, 'no old image (the stream must be NEW_AND_OLD_IMAGES)');

  let kind: ChangeKind;
  if (sk === 'POST') {
    if (!POST_KINDS.has(String(image.kind))) throw new UndecodableRecordError(record, `unknown kind ${JSON.stringify(image.kind)}`);
    kind = image.kind as ChangeKind;
  } else {
    if (!TAXONOMIES.has(String(image.taxonomy))) throw new UndecodableRecordError(record, `unknown taxonomy ${JSON.stringify(image.taxonomy)}`);
    kind = image.taxonomy as ChangeKind;
  }
  const id = typeof image.id === 'number' ? image.id : Number(pk.slice(pk.indexOf('#') + 1));
  if (!Number.isSafeInteger(id)) throw new UndecodableRecordError(record, 'no record id');
  if (!isLang(image.lang)) throw new UndecodableRecordError(record, `unknown language ${JSON.stringify(image.lang)}`);
  const seconds = stream.ApproximateCreationDateTime;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw new UndecodableRecordError(record, 'no ApproximateCreationDateTime');
  if (!record.eventID || !stream.SequenceNumber) throw new UndecodableRecordError(record, 'no eventID or SequenceNumber');

  return {
    eventId: record.eventID,
    sequence: stream.SequenceNumber,
    kind,
    id,
    lang: image.lang,
    action: actionOf(record, old, now),
    revision: typeof image.version === 'number' ? image.version : 0,
    at: new Date(seconds * 1000).toISOString(),
    ...(old ? { old } : {}),
    ...(now ? { new: now } : {}),
  };
}

/**
 * Attributes that other records' writes maintain, not the record's own content: term counts
 * (every event write), venues' and organizers' linked-event counts, events' copies of their
 * venue and organizer cards, the version counters all of these bump, and a series' progress as
 * the consumer writes its occurrences.
 */
export const BOOKKEEPING_ATTRIBUTES: ReadonlySet<string> = new Set(['version', 'indexVersion', 'count', 'linkedEvents', 'shards', 'shardGen', 'cards', 'series']);

/**
 * Whether an update changed bookkeeping only (a term's count after an event write, an event's
 * card after its venue's edit). The consumer still hands such changes to every trigger, since a
 * derived view may show those attributes; triggers that follow the records' own edits (the
 * change feed) skip them.
 */
export function isBookkeepingOnly(change: Change): boolean {
  if (change.action !== 'update' || !change.old || !change.new) return false;
  const names = new Set([...Object.keys(change.old), ...Object.keys(change.new)]);
  for (const name of names) {
    if (BOOKKEEPING_ATTRIBUTES.has(name)) continue;
    if (!sameValue(change.old[name], change.new[name])) return false;
  }
  return true;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((x) => b.has(x));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}
