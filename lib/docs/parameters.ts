// The parameters of operations: path variables (with their examples), query arguments, and the
// HTTP headers TEC's operations honour beyond TEC's.
import { TEC_V1_ACKNOWLEDGEMENT, type Operation } from '#lib/contract/operations.js';
import { argSchema, type ArgDoc } from '#lib/contract/arg-docs.js';
import type { Json } from './json-schema.js';
import { pathExample } from './examples.js';
import { LOGS, operationTraits, RESOURCES } from './responses.js';

export const PATH_FALLBACK: ArgDoc = { type: 'string', description: 'A path segment' };
/** What WordPress's routes take for their path variables, beyond "one segment". */
const PATH_PATTERNS: Record<string, string> = { user: '^(?:me|[0-9]+)$' };

export function parameter(op: Operation, name: string, where: 'path' | 'query', arg: ArgDoc): Json {
  const example = where === 'path' ? pathExample(op, name) : undefined;
  const pattern = where === 'path' && op.api === 'wp' ? PATH_PATTERNS[name] : undefined;
  return {
    name,
    in: where,
    description: arg.description,
    required: where === 'path' || arg.required === true,
    schema: { ...argSchema(arg), ...(pattern ? { pattern } : {}) },
    // Lists go as one comma-separated value (`?categories=1,2`), as TEC documents them.
    ...(where === 'query' && arg.type === 'array' ? { style: 'form', explode: false } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/** The HTTP headers a TEC operation honours beyond TEC's (lib/http/conditional.ts, lib/http/idempotency.ts). */
export function httpHeaders(op: Operation): Json[] {
  return [...(op.experimental ? [ACKNOWLEDGEMENT] : []), ...conditionHeaders(op)];
}

/** TEC's gate of an experimental route, filled in (so that "Try it out" passes it). */
const ACKNOWLEDGEMENT: Json = {
  name: 'X-TEC-EEA',
  in: 'header',
  required: true,
  description: 'TEC’s acknowledgement that the route is experimental, this sentence (in any letter case); without it, 400 missing_experimental_endpoint_acknowledgement.',
  schema: { type: 'string', default: TEC_V1_ACKNOWLEDGEMENT },
  example: TEC_V1_ACKNOWLEDGEMENT,
};

function conditionHeaders(op: Operation): Json[] {
  if (op.api !== 'tec' || !(RESOURCES[op.id.split('.')[0]!] || LOGS[op.id.split('.')[0]!])) return [];
  const t = operationTraits(op);
  const header = (name: string, description: string): Json => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  if (!t.write) return [header('If-None-Match', 'An ETag of an earlier answer: 304 with no body while the answer is unchanged.')];
  if (op.idempotent) {
    return [
      header(
        'Idempotency-Key',
        'Up to 255 visible ASCII characters: a repeat by the same caller with the same key and request within 24 hours answers as the first did and writes nothing.',
      ),
    ];
  }
  return t.pathVar ? [header('If-Match', 'The ETag of the record as last read: the write happens only if the record was not changed since (else 412, nothing written).')] : [];
}
