// The plan of a list of events: which `list` index partitions to read, and the filter on them.
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { listKeys } from '#lib/store/keys.js';
import { wordDim } from '#lib/domain/search-words.js';
import { asList, ownFilter, queryInput, withFilters, type Source } from './lists.js';
import type { Filters } from './event-filters.js';
import { HIGH, type EventListRequest, type Window } from './event-window.js';

export const queryInputOf = (s: Source) => queryInput(s, false);

const FIELD: Record<'venue' | 'organizer' | 'categories' | 'tags', [string, string]> = {
  venue: ['venues', 'venue'],
  organizer: ['organizers', 'organizer'],
  categories: ['categories', 'category'],
  tags: ['tags', 'tag'],
};

/**
 * The index partitions to read and the filter on them. The first filter given drives (one
 * partition per value and status); the others become filter expressions on the index items.
 */
export interface EventSource extends Source {
  /** No filter but the window's end conditions: the count buckets give its total. */
  counted: boolean;
}

export function sources(ctx: EventListRequest, statusList: string[], f: Filters, w: Window | undefined, ownBy?: number): { sources: EventSource[]; multi: boolean } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  let driver: string[] = [''];
  let driven = false;
  const keeps: ((item: Record<string, unknown>) => boolean)[] = [];
  // A searched word drives: its partition holds only the events that have the word; those of
  // password-protected events are apart (disjoint, so their counts add up).
  if (f.word !== undefined) {
    driver = [wordDim(f.word, false), ...(f.withLocked ? [wordDim(f.word, true)] : [])];
    driven = true;
  }
  for (const name of ['venue', 'organizer', 'categories', 'tags'] as const) {
    const ids = f[name];
    if (!ids) continue;
    const [attr, dim] = FIELD[name];
    if (ids.length > LIST_LIMITS.eventFilter) {
      // More values than a request may read partitions for (only places near a point give that
      // many): the index items carry the links, so they are matched as they are read.
      const wanted = new Set(ids);
      keeps.push((item) => asList(item[attr]).some((id) => wanted.has(id)));
      continue;
    }
    if (!driven) {
      driver = ids.map((id) => `${dim}#${id}`);
      driven = true;
      continue;
    }
    names[`#${attr}`] = attr;
    const any = ids.map((id, i) => ((values[`:${attr}${i}`] = id), `contains(#${attr}, :${attr}${i})`));
    // DynamoDB refuses redundant parentheses, as around one term.
    conditions.push(any.length > 1 ? `(${any.join(' OR ')})` : any[0]!);
  }
  if (f.featured !== undefined) {
    if (!driven) {
      driver = [`featured#${f.featured ? 1 : 0}`];
      driven = true;
    } else {
      names['#featured'] = 'featured';
      values[':featured'] = f.featured;
      conditions.push('#featured = :featured');
    }
  }
  if (f.parent !== undefined) {
    names['#parent'] = 'parent';
    values[':parent'] = f.parent;
    conditions.push('#parent = :parent');
  }
  if (w?.endAtMost) conditions.push('#e <= :endAtMost'), (values[':endAtMost'] = w.endAtMost);
  if (w?.endBefore) conditions.push('#e < :endBefore'), (values[':endBefore'] = w.endBefore);
  if (w?.endAfter) conditions.push('#e > :endAfter'), (values[':endAfter'] = w.endAfter);
  if (conditions.some((c) => c.includes('#e'))) names['#e'] = 'utcEnd';
  const onlyEnds = conditions.every((c) => c.includes('#e'));
  const list: EventSource[] = [];
  for (const status of statusList)
    for (const dim of driver) {
      const own = ownFilter(status, ownBy);
      const base: Source = {
        partition: listKeys.partition('event', ctx.lang, status, dim || undefined),
        from: w?.from ?? '',
        to: w?.to ?? HIGH,
        ...(conditions.length ? { filter: conditions.join(' AND '), names, values } : {}),
      };
      const keep = keeps.length ? { keep: (item: Record<string, unknown>) => keeps.every((k) => k(item)) } : {};
      list.push({ ...withFilters(base, own), ...keep, counted: onlyEnds && !own && !keeps.length });
    }
  // A kept subset's total is what its read keeps: every key is read.
  return { sources: list, multi: (driver.length > 1 && f.word === undefined) || keeps.length > 0 };
}
