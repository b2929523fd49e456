// The seam between logic and the table: DynamoDB is spoken in lib/store/ only. Outside it no module
// writes an expression or sends an SDK command, and reads by the typed keys of lib/store/keys.ts
// answer the item's type (lib/store/reads.ts, ItemKey), so that no reader casts what it reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { batchGet, getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import type { AnyPost, EventItem, TermItem } from '#lib/store/items.js';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Production modules outside the store (the local runtime stands in for AWS and may speak to it). */
const outside = [...sources('lib'), ...sources('functions')].filter((f) => !f.startsWith('lib/store/') && !f.startsWith('lib/local/'));

/** The named edges: each speaks to one other AWS service, or decodes the stream's images. */
const EDGES: Record<string, RegExp> = {
  'lib/stream/publisher.ts': /@aws-sdk\/client-eventbridge/,
  'lib/stream/decode.ts': /@aws-sdk\/util-dynamodb/,
  'lib/auth/app-password-key.ts': /@aws-sdk\/client-secrets-manager/,
  'lib/runtime/lambda-credentials.ts': /@aws-sdk\/credential-provider-env/,
};

/** Value imports (not `import type`) of AWS SDK packages in a module's text. */
const sdkImports = (text: string) => [...text.matchAll(/^import (?!type )[^;]*?from '(@aws-sdk\/[^']+)'/gms)].map((m) => m[1]!);

describe('the store seam', () => {
  it('finds the modules it checks', () => {
    expect(outside.length).toBeGreaterThan(150);
    expect(outside).toContain('lib/logic/events.ts');
    expect(outside).not.toContain('lib/store/reads.ts');
  });

  it('loads no AWS SDK outside lib/store/, but for the named edges, each its one package', () => {
    const wrong = outside.flatMap((f) =>
      sdkImports(readFileSync(join(ROOT, f), 'utf8'))
        .filter((pkg) => !EDGES[f]?.test(pkg))
        .map((pkg) => `${f} → ${pkg}`),
    );
    expect(wrong).toEqual([]);
    // The check sees value imports, and the edges still hold theirs.
    expect(sdkImports("import { UpdateCommand } from '@aws-sdk/lib-dynamodb';\nimport type { X } from '@aws-sdk/client-dynamodb';")).toEqual(['@aws-sdk/lib-dynamodb']);
    for (const edge of Object.keys(EDGES)) expect(sdkImports(readFileSync(join(ROOT, edge), 'utf8')).length, edge).toBeGreaterThan(0);
  });

  it('writes no DynamoDB expression outside lib/store/', () => {
    const expression = /\b(Key|Filter|Condition|Update|Projection)Expression\b|ExpressionAttribute(Names|Values)/;
    expect(outside.filter((f) => expression.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('leaves adding up the counts of split records to the store: no module outside it imports withShardTotal(s)', () => {
    // Terms, venues and organizers read for an answer come with their whole counts from the
    // store's reads (lib/store/counted-reads.ts); a reader that adds them itself may forget to.
    const adds = /^import [^;]*\bwithShardTotals?\b[^;]*from '[^']*record-shards\.js'/ms;
    expect(outside.filter((f) => adds.test(readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
    expect(adds.test("import {\n  splitAll,\n  withShardTotals,\n} from '#lib/store/record-shards.js';")).toBe(true);
    expect(adds.test("import { shardWrites } from '#lib/store/record-shards.js';")).toBe(false);
  });

  it('casts to no item type outside lib/store/: reads, index entries and stream images are typed, and narrowed by `kind`', () => {
    const cast = / as (unknown as )?[A-Z][a-zA-Z]*Item\b/g;
    const casts = outside.flatMap((f) => (readFileSync(join(ROOT, f), 'utf8').match(cast) ?? []).map((c) => `${f}:${c}`));
    expect(casts).toEqual([]);
    expect('const e = p as EventItem; const i = it as unknown as IndexItem;'.match(cast)).toHaveLength(2);
  });

  it('types a read by its key: the key names what it answers, and a key made by hand names nothing', () => {
    // Checked by the type check of `npm test` (these functions are never called): were keys
    // untyped again, the directives below would be unused, which fails it.
    const post = () => getItem(keys.post(1));
    const found = () => batchGet<AnyPost | TermItem>([keys.term(1), keys.post(2)]);
    // @ts-expect-error a post key may hold any kind of post: a reader checks it (ofKind)
    const asEvent = () => getItem<EventItem>(keys.post(1));
    // @ts-expect-error a key made by hand does not say what it holds
    const byHand = () => getItem({ pk: 'POST#1', sk: 'POST' });
    expectTypeOf(post).returns.resolves.toEqualTypeOf<AnyPost | undefined>();
    expectTypeOf<Awaited<ReturnType<typeof found>>['get']>().toBeFunction();
    expectTypeOf(async () => (await found()).get(keys.term(1))).returns.resolves.toEqualTypeOf<TermItem | undefined>();
    expect([post, found, asEvent, byHand].every((f) => typeof f === 'function')).toBe(true);
  });
});
