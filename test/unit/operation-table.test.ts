// The operation table and its argument tables agree: an argument marked `path: true` (which the
// pipeline skips in the query and body, and `Params` leaves out) is exactly a `{name}` segment of
// the operation's path, and every operation takes its arguments from the one map by kind and name.
import { describe, expect, it } from 'vitest';
import { ARGS, OPERATIONS } from '#lib/contract/operations.js';

describe('the operation table', () => {
  it('marks as path arguments exactly the segments each path captures', () => {
    expect(OPERATIONS.length).toBeGreaterThan(40);
    for (const op of OPERATIONS) {
      const captured = [...op.path.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();
      const marked = Object.entries(op.args)
        .filter(([, arg]) => arg.path)
        .map(([name]) => name)
        .sort();
      expect(marked, op.id).toEqual(captured);
    }
  });

  it('has one row for every entry of the argument map, and no other', () => {
    const mapped = Object.entries(ARGS).flatMap(([kind, names]) => Object.keys(names).map((name) => `${kind}.${name}`));
    expect(OPERATIONS.map((op) => op.id).sort()).toEqual(mapped.sort());
    for (const op of OPERATIONS) {
      const [kind, name] = op.id.split('.') as [keyof typeof ARGS, string];
      expect(op.args, op.id).toBe((ARGS[kind] as Record<string, unknown>)[name]);
    }
  });
});
