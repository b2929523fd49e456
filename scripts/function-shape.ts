// Part of `npm run lint`: no production function (lib/ but the local runtime, functions/, infra/)
// is longer than 80 lines or takes more than 6 positional parameters. A function's lines count
// the functions declared inside it: a closure is part of what a reader must hold. Past the
// limits, a function is split into named steps, and its inputs become one plan object.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

export const MAX_LINES = 80;
export const MAX_PARAMS = 6;
// Git's pathspecs: `*` matches across directories.
const PRODUCTION = ['lib/*.ts', 'functions/*.ts', 'infra/*.ts'];
const NOT_PRODUCTION = /^lib\/local\//;

export interface Shape {
  file: string;
  line: number;
  name: string;
  lines: number;
  params: number;
}

/** Every function with a body in a source text, with its length and its parameters. */
export function shapes(file: string, text: string): Shape[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const found: Shape[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const line = lineOf(node.getStart(source));
      const named =
        node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      found.push({ file, line, name: named, lines: lineOf(node.end) - line + 1, params: node.parameters.length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions of the production code past either limit. */
export function oversized(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Shape[] {
  return files.flatMap((f) => shapes(f, read(f))).filter((s) => s.lines > MAX_LINES || s.params > MAX_PARAMS);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = execFileSync('git', ['ls-files', ...PRODUCTION], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !NOT_PRODUCTION.test(f));
  const bad = oversized(files);
  for (const s of bad) console.error(`${s.file}:${s.line} ${s.name}: ${s.lines} lines, ${s.params} parameters (at most ${MAX_LINES} lines and ${MAX_PARAMS} parameters)`);
  if (bad.length) process.exit(1);
  console.log(`function shapes: ${files.length} files, every function within ${MAX_LINES} lines and ${MAX_PARAMS} parameters`);
}
