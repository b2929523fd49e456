// The benchmark tables of bench/README.md are the committed results files rendered
// (bench/readme.ts): a table cannot show figures that no traceable run produced.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  readBlock,
  renderCards,
  renderChanges,
  renderCold,
  renderHandlers,
  renderQueries,
  renderReads,
  renderStorms,
  renderVersusTec,
  renderWebhooks,
  replaceBlock,
  TABLES,
} from '../../bench/readme.js';

const readme = readFileSync(TABLES, 'utf8');
const results = (name: string) => new URL(`../../bench/results/${name}.json`, import.meta.url);

describe('bench/README.md benchmark tables', () => {
  for (const [name, render] of [
    ['queries', renderQueries],
    ['cards', renderCards],
    ['handlers', renderHandlers],
    ['cold', renderCold],
    ['storms', renderStorms],
    ['reads', renderReads],
    ['changes', renderChanges],
    ['webhooks', renderWebhooks],
    ['versus-tec', renderVersusTec],
  ] as const) {
    it(`shows bench/results/${name}.json exactly, with its date, machine and commit (nothing without it)`, () => {
      // No committed run, no figures: the block stays empty.
      if (!existsSync(results(name))) return expect(readBlock(readme, name)).toBe('');
      const r = JSON.parse(readFileSync(results(name), 'utf8'));
      expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(r.machine.cores).toBeGreaterThan(0);
      expect(readBlock(readme, name)).toBe(render(r as never).trim());
    });
  }

  it('replaces only the marked block', () => {
    const text = 'a\n<!-- bench:x -->\nold\n<!-- /bench:x -->\nb\n';
    expect(replaceBlock(text, 'x', 'new')).toBe('a\n<!-- bench:x -->\nnew\n<!-- /bench:x -->\nb\n');
    expect(() => replaceBlock(text, 'y', 'new')).toThrow(/bench:y/);
  });
});
