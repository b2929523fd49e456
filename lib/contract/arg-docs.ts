// Arguments as the documents show them: the OpenAPI document (lib/docs/openapi.ts) and the namespace
// index (lib/logic/root.ts), which must not carry the OpenAPI builder.
import type { Operation } from './operations.js';
import type { Arg, Args } from './params.js';

type Json = Record<string, unknown>;

/** The `{name}` variables of a path, in order. */
export const pathNames = (path: string): string[] => [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);

/** An operation's arguments as documented: the root's `namespace` defaults to the configured namespace. */
export function documentedArgs(op: Operation, ns: string): Args {
  if (op.id !== 'root.index' || !op.args.namespace) return op.args;
  return { ...op.args, namespace: { ...op.args.namespace, default: ns } };
}

/** An argument definition without its validator: what the documents show. */
export type ArgDoc = Omit<Arg, 'schema'>;

/** The JSON-Schema part of an argument definition. */
export function argSchema(arg: ArgDoc): Json {
  return {
    ...(arg.type ? { type: arg.type } : {}),
    ...(arg.items ? { items: { type: arg.items } } : {}),
    ...(arg.maxItems !== undefined ? { maxItems: arg.maxItems } : {}),
    ...(arg.format ? { format: arg.format } : {}),
    ...(arg.enum ? { enum: [...arg.enum] } : {}),
    ...(arg.default !== undefined ? { default: arg.default } : {}),
  };
}
