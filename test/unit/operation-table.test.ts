// The operation table and its argument tables agree: an argument marked `path: true` (which the
// pipeline skips in the query and body, and `Params` leaves out) is exactly a `{name}` segment of
// the operation's path, and every operation takes its arguments from the one map by kind and name.
import { describe, expect, it } from 'vitest';
import { ARGS, OPERATIONS, prefixedPath, prefixLanguage, ROUTE_PREFIXES, routePath } from '#lib/contract/operations.js';
import { matchRoute } from '#lib/contract/routes.js';
import { config, LANGUAGES, REST_PREFIX } from '#lib/runtime/config.js';

describe('the operation table', () => {
  it('marks as path arguments exactly the segments each path captures', () => {
    expect(OPERATIONS.length).toBeGreaterThan(40);
    for (const op of OPERATIONS) {
      const captured = [...op.path.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();
      const marked = Object.entries(op.args)
        .filter(([, arg]) => arg.path)
        .map(([name]) => name)
        .sort();
      expect(marked, op.id).toEqual(captured);
    }
  });

  it('has one row for every entry of the argument map, and no other', () => {
    const mapped = Object.entries(ARGS).flatMap(([kind, names]) => Object.keys(names).map((name) => `${kind}.${name}`));
    expect(OPERATIONS.map((op) => op.id).sort()).toEqual(mapped.sort());
    for (const op of OPERATIONS) {
      const [kind, name] = op.id.split('.') as [keyof typeof ARGS, string];
      expect(op.args, op.id).toBe((ARGS[kind] as Record<string, unknown>)[name]);
    }
  });

  it('gives every operation its /wp-json alias: the same route, its prefix serving the default language', () => {
    const cfg = config();
    expect(ROUTE_PREFIXES).toEqual([...LANGUAGES, REST_PREFIX]);
    for (const lang of LANGUAGES) expect(prefixLanguage(lang, cfg)).toBe(lang);
    expect(prefixLanguage('wp-json', cfg)).toBe('en');
    expect(prefixLanguage('wp-json', { ...cfg, defaultLang: 'lt' })).toBe('lt');
    for (const other of ['xx', 'index.php', 'WP-JSON', '', undefined]) expect(prefixLanguage(other, cfg)).toBeUndefined();
    const ids = new Set<string>();
    for (const op of OPERATIONS) {
      const template = routePath(op, cfg.namespace);
      // Every route starts with the prefix: an alias needs no route of its own.
      expect(template.startsWith('/{lang}'), op.id).toBe(true);
      const alias = prefixedPath(op, cfg.namespace, REST_PREFIX);
      expect(alias, op.id).toBe(`/wp-json${template.slice('/{lang}'.length)}`);
      const concrete = alias.replace('{id}', '7').replace('{slug}', 'a-slug').replace('{user}', 'me').replace('{uuid}', 'u-1');
      for (const method of op.methods) {
        const match = matchRoute(method, concrete, cfg.namespace);
        expect(match.op?.id, `${method} ${concrete}`).toBe(op.id);
        expect(match.routeKey).toBe(`${method} ${template}`);
        expect(prefixLanguage(match.pathParameters?.lang, cfg)).toBe(cfg.defaultLang);
      }
      ids.add(op.id);
    }
    expect(ids.size).toBe(OPERATIONS.length);
  });
});
