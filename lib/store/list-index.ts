// Reads of one partition of the `list` or `terms` index: a sort-key range and tests of the items'
// attributes, which become DynamoDB's key condition and filter expression here, so that list
// plans (lib/logic/event-sources.ts, lists.ts) say what they want without writing expressions.
import { INDEXES } from './table.js';

type ListIndex = typeof INDEXES.list | typeof INDEXES.terms;

/**
 * A test of an index item's attribute: a comparison (which an item without the attribute passes
 * too, with `orAbsent`; or, with `orNotText`, an item whose attribute is absent or not text, as
 * a malformed item's may be), or a list attribute holding any of some ids.
 */
export type Test =
  | { attr: string; is: '=' | '<' | '<=' | '>' | '>='; value: string | number | boolean; orAbsent?: true; orNotText?: true }
  | { attr: string; holdsAny: readonly number[] };

/** One index partition to read (of the `list` index unless named), with an optional sort-key range and tests. */
export interface Source {
  index?: ListIndex;
  partition: string;
  from?: string;
  to?: string;
  /** Tests every item read must pass (all of them). */
  where?: readonly Test[];
  /** Which of the index items read to keep, for a condition too long for a filter expression. */
  keep?: (item: Record<string, unknown>) => boolean;
}

/** The filter expression of some tests, with its names and values. */
function filterOf(tests: readonly Test[], names: Record<string, string>, values: Record<string, unknown>): string {
  const parts = tests.map((t, i) => {
    names[`#f${i}`] = t.attr;
    if ('is' in t) {
      values[`:f${i}`] = t.value;
      const compare = `#f${i} ${t.is} :f${i}`;
      if (t.orNotText) {
        values[`:f${i}_t`] = 'S';
        return [`NOT attribute_type(#f${i}, :f${i}_t)`, compare];
      }
      return t.orAbsent ? [`attribute_not_exists(#f${i})`, compare] : [compare];
    }
    return t.holdsAny.map((id, j) => ((values[`:f${i}_${j}`] = id), `contains(#f${i}, :f${i}_${j})`));
  });
  // DynamoDB refuses redundant parentheses: an alternative is wrapped only beside other parts.
  if (parts.length === 1) return parts[0]!.join(' OR ');
  return parts.map((alts) => (alts.length > 1 ? `(${alts.join(' OR ')})` : alts[0]!)).join(' AND ');
}

/** The Query input of a source (without the table name, page size and start key). */
export function queryInput(s: Source, descending: boolean) {
  const I = s.index ?? INDEXES.list;
  const names: Record<string, string> = { '#p': I.partitionKey };
  const values: Record<string, unknown> = { ':p': s.partition };
  let condition = '#p = :p';
  // Key values may not be empty strings: an open bound becomes a one-sided condition.
  const from = s.from || undefined;
  const to = s.to === '\uffff' ? undefined : s.to || undefined;
  if (from !== undefined || to !== undefined) names['#s'] = I.sortKey;
  if (from !== undefined) values[':from'] = from;
  if (to !== undefined) values[':to'] = to;
  if (from !== undefined && to !== undefined) condition += ' AND #s BETWEEN :from AND :to';
  else if (from !== undefined) condition += ' AND #s >= :from';
  else if (to !== undefined) condition += ' AND #s <= :to';
  const filter = s.where?.length ? filterOf(s.where, names, values) : undefined;
  return {
    IndexName: I.indexName,
    KeyConditionExpression: condition,
    ...(filter ? { FilterExpression: filter } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !descending,
  };
}

/** Whether a source filters the items it reads (a page then asks for more items than it keeps). */
export const filters = (s: Source) => !!s.where?.length;
