// The lint step that keeps production functions short and their inputs few.
import { describe, expect, it } from 'vitest';
import { MAX_LINES, MAX_PARAMS, oversized, shapes } from '../../scripts/function-shape.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('function shapes', () => {
  it('measures each function with a body, nested ones inside their parent too', () => {
    const text = `export function outer(a: number, b: number) {\n  const inner = (x: number) => {\n    return x;\n  };\n  return inner(a + b);\n}\nclass K {\n  m(): void {}\n}\n`;
    expect(shapes('f.ts', text).map(({ name, lines, params }) => [name, lines, params])).toEqual([
      ['outer', 6, 2],
      ['inner', 3, 1],
      ['m', 1, 0],
    ]);
  });

  it('flags a function past the line limit or the parameter limit, and nothing within them', () => {
    const files: Record<string, string> = {
      'long.ts': `export function long() {\n${lines(MAX_LINES - 1)}\n}\n`,
      'fits.ts': `export function fits() {\n${lines(MAX_LINES - 2)}\n}\n`,
      'many.ts': `export const many = (${Array.from({ length: MAX_PARAMS + 1 }, (_, i) => `p${i}: number`).join(', ')}) => p0;\n`,
      'few.ts': `export const few = (${Array.from({ length: MAX_PARAMS }, (_, i) => `p${i}: number`).join(', ')}) => p0;\n`,
    };
    const found = oversized(Object.keys(files), (f) => files[f]!);
    expect(found.map((s) => [s.file, s.name, s.lines, s.params])).toEqual([
      ['long.ts', 'long', MAX_LINES + 1, 0],
      ['many.ts', 'many', 1, MAX_PARAMS + 1],
    ]);
  });
});
