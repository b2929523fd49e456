// An operation table larger than the real one, for sizing the stack: the real operations, then
// copies of them under other kinds and paths until there are `count`. The copies keep each
// operation's methods, grants and handler, so that each costs what a real one of its shape does.
import { OPERATIONS, type Operation } from '#lib/contract/operations.js';

export function moreOperations(count: number, base: readonly Operation[] = OPERATIONS): Operation[] {
  const out: Operation[] = [...base];
  for (let copy = 1; out.length < count; copy++) {
    for (const op of base) {
      if (out.length >= count) break;
      const [kind, name] = op.id.split('.') as [string, string];
      out.push({ ...op, id: `${kind}Copy${copy}.${name}`, api: 'tec', path: `/copy${copy}${op.path}`, overrides: [] });
    }
  }
  return out;
}
