// JSON Schema for the OpenAPI document (lib/docs/openapi.ts): the type of its values, links
// between its component schemas, and the schema that fits example values.

export type Json = Record<string, unknown>;

/** A link to a schema of components.schemas. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

// --- schema inference from presented values ------------------------------------------------------

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as 'boolean' | 'string' | 'object';
}

/**
 * The JSON Schema that fits all the example values: their types, array items, object properties
 * (in first-seen order) and, as `required`, the properties every example object has.
 */
export function inferSchema(values: unknown[]): Json {
  let types = [...new Set(values.map(jsonType))];
  if (types.includes('number')) types = types.filter((t) => t !== 'integer');
  const out: Json = { type: types.length === 1 ? types[0] : types };
  const items = values.filter(Array.isArray).flat();
  if (items.length) out.items = inferSchema(items);
  const objects = values.filter(isObject);
  if (objects.length) {
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
    out.properties = Object.fromEntries(keys.map((k) => [k, inferSchema(objects.filter((o) => k in o).map((o) => o[k]))]));
    const required = keys.filter((k) => objects.every((o) => k in o));
    if (required.length) out.required = required;
  }
  return out;
}
