// Which arguments of an operation go in a request body: shared by the examples and the request
// bodies of the OpenAPI document.
import type { Method, Operation } from '#lib/contract/operations.js';
import { pathNames } from '#lib/contract/arg-docs.js';
import type { Arg } from '#lib/contract/params.js';

export const BODY_METHODS: readonly Method[] = ['POST', 'PUT', 'PATCH'];

/** The arguments an operation takes in a request body (writes): all but the path variables. */
export function bodyArgs(op: Operation): [string, Arg][] | undefined {
  if (!op.methods.some((m) => BODY_METHODS.includes(m))) return undefined;
  const inPath = pathNames(op.path);
  const args = Object.entries(op.args).flatMap(([n, a]): [string, Arg][] => (!inPath.includes(n) ? [[n, a]] : a.inBody ? [[n, a.inBody]] : []));
  return args.length ? args : undefined;
}
