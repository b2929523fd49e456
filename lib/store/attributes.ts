// Values as DynamoDB holds them and as the code reads them: the document client's conversions
// (lib/store/db.ts's options) for the reads that send the plain client's commands (./reads.ts).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/** Plain values as attribute values, with the document client's options. */
export function attributes(values: Record<string, unknown>): Record<string, AttributeValue>;
export function attributes(values: Record<string, unknown> | undefined): Record<string, AttributeValue> | undefined;
export function attributes(values: Record<string, unknown> | undefined): Record<string, AttributeValue> | undefined {
  return values && marshall(values, { removeUndefinedValues: true, convertEmptyValues: false });
}

/**
 * A number as the document client reads it: a JavaScript number, or a bigint for an integer past
 * the safe range (anything else past it cannot be read without losing digits, and fails).
 */
function numberOf(text: string): number | bigint {
  const n = Number(text);
  if (!(Math.abs(n) > Number.MAX_SAFE_INTEGER) || !Number.isFinite(n)) return n;
  try {
    return BigInt(text);
  } catch {
    throw new Error(`${text} can't be converted to BigInt. Set options.wrapNumbers to get string value.`);
  }
}

/**
 * One attribute value as a plain value, as `unmarshall` of @aws-sdk/util-dynamodb gives it, in
 * fewer steps: it is a hot path (every item every read returns), and the library's general
 * version makes an array of entries for every value and every map.
 */
export function nativeValue(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return numberOf(value.N);
  if (value.M !== undefined) return plainItem(value.M);
  if (value.L !== undefined) return value.L.map(nativeValue);
  if (value.BOOL !== undefined) return Boolean(value.BOOL);
  if (value.NULL !== undefined) return null;
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map(numberOf));
  if (value.B !== undefined) return value.B;
  if (value.BS !== undefined) return new Set(value.BS);
  throw new Error(`No value defined: ${JSON.stringify(value)}`);
}

/**
 * An item (or a map) as plain values: its own attributes only. An attribute named `__proto__` (a
 * JSON answer holds it as any other name) stays an attribute, where an assignment would make it the
 * object's prototype, as `unmarshall` does.
 */
export function plainItem<T = Record<string, unknown>>(item: Record<string, AttributeValue>): T {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(item)) {
    const value = nativeValue(item[name]!);
    if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    else out[name] = value;
  }
  return out as T;
}
