// The request bodies of write operations: one input schema and one request body each, in the
// components, with the example that "Try it out" sends.
import { OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { argSchema } from '#lib/contract/arg-docs.js';
import { ref, type Json } from './json-schema.js';
import { bodyArgs } from './body-args.js';
import { exampleBody } from './examples.js';

/** The component name of an operation's input, e.g. `events.updateBySlug` -> `EventsUpdateBySlugInput`. */
export const inputName = (op: Operation) =>
  `${op.id
    .split('.')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Input`;

/** One schema and one request body per write operation, shared by its methods and by both media types. */
export function inputComponents(): { schemas: Json; requestBodies: Json } {
  const schemas: Json = {};
  const requestBodies: Json = {};
  for (const op of OPERATIONS) {
    const args = bodyArgs(op);
    if (!args) continue;
    const name = inputName(op);
    const required = args.filter(([, a]) => a.required).map(([n]) => n);
    schemas[name] = {
      type: 'object',
      description: `The input of ${op.id}`,
      properties: Object.fromEntries(args.map(([n, a]) => [n, { ...argSchema(a), description: a.description }])),
      ...(required.length ? { required } : {}),
    };
    const arrays = args.filter(([, a]) => a.type === 'array').map(([n]) => n);
    // Without an example, documentation tools fill every property with a placeholder and send them all.
    const example = exampleBody(op);
    requestBodies[name] = {
      required: required.length > 0,
      content: {
        'application/json': { schema: ref(name), example },
        'application/x-www-form-urlencoded': {
          schema: ref(name),
          example,
          // Lists go as one comma-separated value; `name[]=…` repeated also works.
          ...(arrays.length ? { encoding: Object.fromEntries(arrays.map((n) => [n, { style: 'form', explode: false }])) } : {}),
        },
      },
    };
  }
  return { schemas, requestBodies };
}
