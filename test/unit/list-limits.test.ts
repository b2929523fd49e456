// The list filters' limits (lib/contract/budget.ts) are in the argument tables, and so in the
// OpenAPI document as `maxItems`; their messages name the argument and the limit.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#lib/docs/openapi.js';
import { documentKey } from '#lib/docs/paths.js';
import { OPERATIONS, operation } from '#lib/contract/operations.js';
import { validateArgs } from '#lib/contract/validate.js';
import type { ApiError } from '#lib/contract/errors.js';
import { LIST_LIMITS, REQUEST_BUDGET } from '#lib/contract/budget.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';

type Json = Record<string, any>;

describe('list limits', () => {
  it('fit an editor list of every status, one partition per value and status, within the budget', () => {
    expect(REQUEST_BUDGET).toEqual({ requests: 50, readUnits: 5_000 });
    expect(LIST_LIMITS.eventFilter * POST_STATUSES.length).toBeLessThanOrEqual(REQUEST_BUDGET.requests);
    expect(LIST_LIMITS).toEqual({ eventFilter: 8, searchWords: 8, include: 50, termIds: 100 });
  });

  it('show in the OpenAPI document as maxItems of each limited list, and nowhere else', () => {
    const doc = openApiDocument('en') as Json;
    const limited: Record<string, number> = {};
    for (const op of OPERATIONS) {
      for (const [name, arg] of Object.entries(op.args)) if (arg.maxItems !== undefined) limited[`${op.id} ${name}`] = arg.maxItems;
    }
    expect(limited).toEqual({
      'events.list categories': 8,
      'events.list tags': 8,
      'events.list venue': 8,
      'events.list organizer': 8,
      'events.list include': 50,
      'categories.list exclude': 100,
      'categories.list include': 100,
      'tags.list exclude': 100,
      'tags.list include': 100,
      'wpTags.list exclude': 100,
      'wpTags.list include': 100,
      'wpTags.list slug': 100,
      'wpCategories.list exclude': 100,
      'wpCategories.list include': 100,
      'wpCategories.list slug': 100,
      'wpEvents.list author': 100,
      'wpEvents.list author_exclude': 100,
      'wpEvents.list exclude': 100,
      'wpEvents.list include': 100,
      'wpEvents.list slug': 100,
      'wpEvents.list tribe_events_cat': 100,
      'wpEvents.list tribe_events_cat_exclude': 100,
      'wpEvents.list tags': 100,
      'wpEvents.list tags_exclude': 100,
      'wpVenues.list author': 100,
      'wpVenues.list author_exclude': 100,
      'wpVenues.list exclude': 100,
      'wpVenues.list include': 100,
      'wpVenues.list slug': 100,
      'wpOrganizers.list author': 100,
      'wpOrganizers.list author_exclude': 100,
      'wpOrganizers.list exclude': 100,
      'wpOrganizers.list include': 100,
      'wpOrganizers.list slug': 100,
      'tecEvents.list categories': 8,
      'tecEvents.list tags': 8,
      'tecEvents.list venue': 8,
      'webhooks.create events': 20,
      'tecEvents.list organizer': 8,
    });
    const shown: Record<string, number> = {};
    for (const op of OPERATIONS) {
      for (const method of op.methods) {
        const params: Json[] = doc.paths[documentKey(op)]?.[method.toLowerCase()]?.parameters ?? [];
        for (const p of params) if (p.schema?.maxItems !== undefined) shown[`${op.id} ${p.name}`] = p.schema.maxItems;
        // A write's limited list is a property of its body.
        const deref = (v: Json | undefined): Json | undefined =>
          v?.$ref
            ? String(v.$ref)
                .split('/')
                .slice(1)
                .reduce((o: Json, k: string) => o?.[k], doc)
            : v;
        const body = deref(deref(doc.paths[documentKey(op)]?.[method.toLowerCase()]?.requestBody)?.content?.['application/json']?.schema);
        const properties: Record<string, Json> = body?.properties ?? {};
        for (const [name, schema] of Object.entries(properties)) if (schema.maxItems !== undefined) shown[`${op.id} ${name}`] = schema.maxItems;
      }
    }
    expect(shown).toEqual(limited);
  });

  it('refuse one value more with a message that names the argument and the limit', () => {
    const args = operation('events.list').args;
    const refusal = (input: Record<string, unknown>) => {
      try {
        validateArgs(args, input);
      } catch (err) {
        return (err as ApiError).body().data.params;
      }
      return undefined;
    };
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(refusal({ venue: ids(8).join(',') })).toBeUndefined();
    expect(refusal({ venue: ids(9).join(',') })).toEqual({ venue: 'venue must contain at most 8 ids.' });
    // A JSON list counts its items as a comma-separated one does.
    expect(refusal({ organizer: ids(9) })).toEqual({ organizer: 'organizer must contain at most 8 ids.' });
    expect(refusal({ tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] })).toEqual({ tags: 'tags must contain at most 8 ids or slugs.' });
    expect(refusal({ include: ids(51).join(',') })).toEqual({ include: 'include must contain at most 50 ids.' });
    expect(refusal({ search: 'one two three four five six seven eight' })).toBeUndefined();
    // Words as the search index has them: repeats and case count once.
    expect(refusal({ search: 'One one ONE two three four five six seven eight' })).toBeUndefined();
    expect(refusal({ search: 'one two three four five six seven eight nine' })).toEqual({ search: 'search must contain at most 8 words.' });
    expect(refusal({ search: 'x'.repeat(201) })).toEqual({ search: 'search must be at most 200 characters long.' });
  });
});
