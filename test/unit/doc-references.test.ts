// The code cites the documentation in the repository (`docs/tec-behaviour.md §4.1.3`), never documents
// a clone does not have. Every cited file must exist and every cited section must be a numbered
// heading of it; any other `§` must belong to an RFC the file names; and the links of the README and
// the docs must lead to files that exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['lib', 'functions', 'infra', 'bench', 'scripts', 'test', 'fuzz'];
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

interface Citation {
  file: string;
  sections: string[];
}

/** The citations of a source text; comment lines that continue one another are read as one. */
function citations(source: string): { cited: Citation[]; stray: number } {
  const text = source.replace(/\n\s*(?:\/\/|\*(?!\/))\s*/g, ' ');
  const cited: Citation[] = [];
  const pattern = /\b(docs\/[a-z0-9-]+\.md|bench\/README\.md)((?:\s*(?:,|and|-|–)?\s*§\d+(?:\.\d+)*)*)/g;
  let consumed = 0;
  for (const m of text.matchAll(pattern)) {
    const sections = [...m[2]!.matchAll(/§(\d+(?:\.\d+)*)/g)].map((s) => s[1]!);
    consumed += sections.length;
    cited.push({ file: m[1]!, sections });
  }
  return { cited, stray: (text.match(/§/g) ?? []).length - consumed };
}

/** The numbers of a Markdown file's numbered headings (`### 4.1 GET /events` → `4.1`). */
function headings(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/gm)].map((m) => m[1]!));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return path.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

describe('references to the documentation', () => {
  it('reads citations as the code writes them', () => {
    const sample = [
      '// Who may do what (docs/tec-behaviour.md',
      '// §1.3, §1.4, §5-§7.2; docs/design.md §5), as in docs/design.md §4.2: "…"; RFC 9110 §13.1.1.',
      "describe('strict_dates (docs/tec-behaviour.md §4.1.3 example)', () => {});",
    ].join('\n');
    expect(citations(sample)).toEqual({
      cited: [
        { file: 'docs/tec-behaviour.md', sections: ['1.3', '1.4', '5', '7.2'] },
        { file: 'docs/design.md', sections: ['5'] },
        { file: 'docs/design.md', sections: ['4.2'] },
        { file: 'docs/tec-behaviour.md', sections: ['4.1.3'] },
      ],
      stray: 1,
    });
    expect(headings('# Title\n## 4. Lists\n### 4.1 `GET /events`\n#### 4.1.3 Whole days\n## Notes')).toEqual(new Set(['4', '4.1', '4.1.3']));
  });

  const files = SCANNED.flatMap((dir) => sources(join(ROOT, dir))).filter((f) => f !== SELF);

  it('finds the code to check', () => {
    expect(files).toContain('lib/logic/event-window.ts');
    expect(files.length).toBeGreaterThan(300);
  });

  it('every cited file exists and every cited section is one of its headings', () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const { file: doc, sections } of citations(readFileSync(join(ROOT, file), 'utf8')).cited) {
        count++;
        const path = join(ROOT, doc);
        if (!existsSync(path)) {
          missing.push(`${file}: ${doc} does not exist`);
          continue;
        }
        const known = headings(readFileSync(path, 'utf8'));
        for (const s of sections) if (!known.has(s)) missing.push(`${file}: ${doc} has no section §${s}`);
      }
    }
    expect(missing).toEqual([]);
    expect(count).toBeGreaterThan(60);
  });

  it('cites no document outside the repository, and every other § is an RFC section', () => {
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (/\b(?:DESIGN|reference|spec)\b[^§\n]{0,3}§/i.test(text)) outside.push(`${file}: cites a document that is not in the repository`);
      if (citations(text).stray > 0 && !/\bRFC \d{3,5}\b/.test(text)) outside.push(`${file}: a § that belongs to no cited document or RFC`);
    }
    expect(outside).toEqual([]);
  });

  it('the README opens with the two commands and the tour, and stays short', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const first = readme.slice(readme.indexOf('```sh\n') + 6, readme.indexOf('```', readme.indexOf('```sh\n') + 6));
    expect(first.split('\n').map((line) => line.replace(/\s+#.*$/, ''))).toEqual(['npm ci && npm start', 'npm ci && npm test', '']);
    expect(readme.indexOf('```sh\n')).toBeLessThan(readme.indexOf('\n## '));
    expect(readme).toContain('\n### A five-minute tour\n');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('the links of the README and the docs lead to files that exist', () => {
    const pages = ['README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const page of pages) {
      for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(resolve(ROOT, dirname(page), target))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
