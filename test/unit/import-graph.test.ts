// The shape of the code, checked: imports run one way through lib/'s folders (docs/design.md §3.3), no module
// imports itself back through others (type-only imports count too), production code never reaches
// the local runtime, the benchmarks or the tests, and each bundle carries only what it runs.
import { describe, expect, it } from 'vitest';
import { importGraph, importCycles, closure, layerOf, type Graph } from '../support/imports.js';
import { OPERATIONS } from '#lib/contract/operations.js';

const graph: Graph = importGraph();
const files = [...graph.keys()];

describe('the import graph', () => {
  it('reads every module of the repository, with their imports', () => {
    expect(files.filter((f) => f.startsWith('lib/')).length).toBeGreaterThan(100);
    expect(files.filter((f) => f.startsWith('functions/')).length).toBeGreaterThan(30);
    // A module everyone uses is seen as imported: the parser found the edges.
    const importers = files.filter((f) => graph.get(f)!.some((e) => e.to === 'lib/runtime/config.ts'));
    expect(importers.length).toBeGreaterThan(40);
  });

  it('leaves no module loose at the top of lib/: each lives in the folder of its concern', () => {
    expect(files.filter((f) => /^lib\/[^/]+\.ts$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('lib/') && layerOf(f) === undefined)).toEqual([]);
  });

  it('has no cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('runs every import in lib/ down the layers, never up or sideways', () => {
    const wrong: string[] = [];
    for (const [from, edges] of graph) {
      const a = layerOf(from);
      if (a === undefined || !from.startsWith('lib/')) continue;
      for (const { to } of edges) {
        const b = layerOf(to);
        if (!to.startsWith('lib/')) {
          wrong.push(`${from} → ${to}`);
          continue;
        }
        if (b === undefined || a.name === b.name) continue;
        if (b.rank >= a.rank) wrong.push(`${from} → ${to}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the local runtime, the benchmarks, the fuzzer and the tests out of production code', () => {
    const production = files.filter((f) => f.startsWith('functions/') || f.startsWith('infra/') || (f.startsWith('lib/') && !f.startsWith('lib/local/')));
    const wrong = production.flatMap((f) =>
      graph
        .get(f)!
        .filter(({ to }) => /^(lib\/local|bench|test|fuzz|scripts)\//.test(to))
        .map(({ to }) => `${f} → ${to}`),
    );
    expect(wrong).toEqual([]);
  });

  it('gives the stream consumer only what it runs: no presenters, no HTTP edge, no documents, no sign-in', () => {
    const consumers = files.filter((f) => f.startsWith('functions/stream/'));
    expect(consumers.length).toBeGreaterThan(0);
    for (const entry of consumers) {
      const carried = [...closure(graph, entry)].filter((f) => /^lib\/(present|http|docs|auth)\//.test(f) || f.startsWith('lib/wp/kses/'));
      expect(carried, entry).toEqual([]);
    }
  });

  it('reads the change counter as it is now for the event list, which searches, and in no function that cannot search', () => {
    // A search given the counter as the function read it a moment ago would miss a write another
    // function answered within that moment (lib/logic/event-search.ts judges the recent writes by it).
    const fresh = OPERATIONS.filter((op) => op.freshCounter).map((op) => op.id);
    expect(fresh).toEqual(['events.list']);
    for (const id of fresh) expect(closure(graph, OPERATIONS.find((op) => op.id === id)!.handler).has('lib/logic/event-search.ts'), id).toBe(true);
  });
});
