// How the operations are spread over nested stacks: one group per kind of the operation table
// (`events`, `venues`, `wpTags`…: the part of the id before the dot), cut into chunks of at most
// MAX_GROUP_OPERATIONS in the table's order. A group is data, derived from the table; the stack
// makes one nested stack of each (infra/operation-stack.ts).
import type { Operation } from '#lib/contract/operations.js';

/**
 * The most operations one nested stack holds. An operation costs at most a dozen resources there
 * (function, role, log group, integration, invoke permission, up to four routes, four alarms), so
 * a full group stays far below CloudFormation's 500 resources and 200 outputs.
 */
export const MAX_GROUP_OPERATIONS = 30;

export interface OperationGroup {
  /** `events`, or `events2` for the second chunk of a kind: the nested stack's id comes from it. */
  id: string;
  operations: readonly Operation[];
}

/** The kind of an operation: `events.getBySlug` -> `events`. */
export const kindOf = (op: Pick<Operation, 'id'>): string => op.id.slice(0, Math.max(0, op.id.indexOf('.')));

export function operationGroups(operations: readonly Operation[], max = MAX_GROUP_OPERATIONS): OperationGroup[] {
  const byKind = new Map<string, Operation[]>();
  for (const op of operations) {
    const kind = kindOf(op);
    if (!kind) throw new Error(`Operation id ${op.id} has no kind (expected <kind>.<name>)`);
    byKind.set(kind, [...(byKind.get(kind) ?? []), op]);
  }
  const groups: OperationGroup[] = [];
  for (const [kind, ops] of byKind) {
    for (let i = 0; i < ops.length; i += max) groups.push({ id: i === 0 ? kind : `${kind}${i / max + 1}`, operations: ops.slice(i, i + max) });
  }
  const ids = groups.map((g) => g.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new Error(`Two groups of operations are named ${twice}: rename a kind`);
  return groups;
}
