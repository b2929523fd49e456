// The repository's import graph, read with TypeScript's parser (static, type-only and dynamic
// imports alike), for the tests that check the shape of the code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '../..');
const FOLDERS = ['lib', 'functions', 'infra', 'scripts', 'bench', 'test', 'fuzz'];

/**
 * lib/'s folders from the bottom up: a module imports its own folder and the folders of lower
 * layers only. Folders that share a layer do not import each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['runtime'],
  ['observe'],
  ['wp'],
  ['domain'],
  ['contract'],
  ['store'],
  ['auth'],
  ['present'],
  ['docs'],
  ['logic'],
  ['http', 'stream'],
  ['local'],
  ['import'],
];

export interface Edge {
  to: string;
  /** Every import of `to` in the module is type-only: nothing of it is loaded or bundled. */
  typeOnly: boolean;
}
export type Graph = Map<string, Edge[]>;

export function layerOf(file: string): { name: string; rank: number } | undefined {
  const m = /^lib\/([^/]+)\//.exec(file);
  if (!m) return undefined;
  const rank = LAYERS.findIndex((l) => l.includes(m[1]!));
  return rank < 0 ? undefined : { name: m[1]!, rank };
}

function sources(): string[] {
  return FOLDERS.flatMap((folder) =>
    existsSync(join(ROOT, folder))
      ? readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.ts') && !f.includes('node_modules'))
          .map((f) => `${folder}/${f}`)
      : [],
  );
}

/** The repository path a specifier names, or undefined for a package. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  let path: string;
  if (spec.startsWith('#lib/')) path = `lib/${spec.slice(5)}`;
  else if (spec.startsWith('.')) path = relative(ROOT, normalize(join(ROOT, dirname(from), spec)));
  else return undefined;
  return path.replace(/\.js$/, '.ts');
}

/** The specifiers a module imports, each with whether it is imported for types alone. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      let typeOnly = false;
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
        typeOnly = clause !== undefined && (clause.isTypeOnly || (!clause.name && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      } else typeOnly = node.isTypeOnly;
      out.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push({ spec: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

export function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sources()) {
    const edges = new Map<string, boolean>();
    for (const { spec, typeOnly } of importsOf(file)) {
      const to = resolveSpecifier(file, spec);
      if (to === undefined || !to.endsWith('.ts')) continue;
      edges.set(to, (edges.get(to) ?? true) && typeOnly);
    }
    graph.set(
      file,
      [...edges].map(([to, typeOnly]) => ({ to, typeOnly })),
    );
  }
  return graph;
}

/** Every cycle, as the files of each strongly connected component (Tarjan's algorithm). */
export function importCycles(graph: Graph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (on.has(to)) low.set(v, Math.min(low.get(v)!, idx.get(to)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
      if (scc.length > 1 || selfLoop) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** The modules an entry point loads (and a bundle of it carries), itself included: type-only imports load nothing. */
export function closure(graph: Graph, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const todo = [entry];
  while (todo.length) {
    for (const { to, typeOnly } of graph.get(todo.pop()!) ?? []) {
      if (typeOnly || seen.has(to)) continue;
      seen.add(to);
      todo.push(to);
    }
  }
  return seen;
}
