// Pages of `list` and `terms` index partitions (./list-index.ts says what each source reads): the
// keys of a page across partitions, merged in sort-key order, and how many match.
import { waitAll } from '#lib/runtime/settle.js';
import { count, query, queryAll, type Key } from './reads.js';
import { filters, queryInput, type Source } from './list-index.js';
import { INDEXES } from './table.js';

/**
 * The largest page of keys one Query asks for (DynamoDB takes at most 2^31-1, and a page ends at
 * 1 MB anyway): a deep page reads its keys in as few requests as DynamoDB allows, since the
 * request budget (lib/contract/budget.ts) counts requests and read units cost the same either way.
 */
const MAX_QUERY_LIMIT = 100_000;

/**
 * The matches `offset … offset+limit` across partitions, merged in sort-key order and without
 * repeats (an event in two of the partitions of an OR filter is listed once). Each partition is
 * read only as far as the page needs, so the cost follows the page, not the table.
 */
export async function pageKeys(sources: Source[], offset: number, limit: number, descending: boolean): Promise<Hit[]> {
  const want = offset + limit;
  // The partitions are independent: they are read at the same time.
  const read = await waitAll(
    sources.filter(nonEmpty).map(async (s): Promise<SourceItems> => {
      const items: Record<string, string | number>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await query<Record<string, string | number>>({
          ...queryInput(s, descending),
          // Limit counts the items read before a filter drops some: a filtered partition asks for twice as many.
          Limit: Math.min(Math.max(want - items.length, 1) * (filters(s) ? 2 : 1), MAX_QUERY_LIMIT),
          ExclusiveStartKey: start,
        });
        items.push(...(s.keep ? out.items.filter(s.keep) : out.items).slice(0, want - items.length));
        start = out.last;
      } while (start && items.length < want);
      return { s, items };
    }),
  );
  return mergeHits(read, descending).slice(offset, want);
}

export type Hit = Key & { id: number; item: Record<string, unknown> };
type SourceItems = { s: Source; items: Record<string, string | number>[] };

/** The index items of several sources in one order, each record once (its first place). */
function mergeHits(read: SourceItems[], descending: boolean): Hit[] {
  const merged = read.flatMap(({ s, items }) =>
    items.map((item) => ({ sort: String(item[(s.index ?? INDEXES.list).sortKey]), hit: { pk: String(item.pk), sk: String(item.sk), id: Number(item.id), item } })),
  );
  merged.sort((a, b) => (descending ? b.sort.localeCompare(a.sort) : a.sort.localeCompare(b.sort)));
  const seen = new Set<number>();
  return merged.filter((m) => !seen.has(m.hit.id) && !!seen.add(m.hit.id)).map((m) => m.hit);
}

/**
 * A page and the total of some list partitions in one read of each: every key. Counting reads
 * every key anyway (DynamoDB charges a COUNT query for the items it reads), so where the total
 * needs a count query this costs no more read units and one request less.
 */
export async function pageAndTotal(sources: Source[], offset: number, limit: number, descending: boolean): Promise<{ hits: Hit[]; total: number }> {
  const read = await waitAll(
    sources
      .filter(nonEmpty)
      .map((s) => queryAll<Record<string, string | number>>(queryInput(s, descending)).then((items) => ({ s, items: s.keep ? items.filter(s.keep) : items }))),
  );
  const unique = mergeHits(read, descending);
  return { hits: unique.slice(offset, offset + limit), total: unique.length };
}

/** A source whose range is inverted (start after end) matches nothing and is not queried. */
export const nonEmpty = (s: Source) => !(s.from && s.to && s.from > s.to);

/** How many items some partitions hold (a COUNT query of each). */
export async function total(sources: Source[]): Promise<number> {
  const counts = await waitAll(sources.filter(nonEmpty).map((s) => count(queryInput(s, false))));
  return counts.reduce((a, b) => a + b, 0);
}
