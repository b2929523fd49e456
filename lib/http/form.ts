// Query strings and form bodies read the way PHP fills `$_GET` and `$_POST` (and so the way
// WordPress sees them): `name[]` appends to a list, `name[key]` sets a key, the last of two equal
// names wins, and names PHP would not register are dropped. A few dozen lines instead of the `qs`
// package and its dependencies (about 55 KB of every bundle).

/** PHP's max_input_vars: pairs past this many are ignored. */
export const MAX_PAIRS = 1000;
/** How many bracket levels below the name are kept; PHP drops a deeper variable (max_input_nesting_level). */
export const MAX_NESTING = 5;

/** Keys that would reach an object's prototype chain if assigned: never taken from input. */
export const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

type Tree = Record<string, unknown>;

/** PHP's urldecode: `+` is a space and each valid `%XX` a byte; the bytes are read as UTF-8. */
export function urlDecode(text: string): string {
  const plus = text.replace(/\+/g, ' ');
  if (!plus.includes('%')) return plus;
  const bytes: number[] = [];
  const utf8 = Buffer.from(plus, 'utf8');
  for (let i = 0; i < utf8.length; i++) {
    const hex = utf8[i] === 0x25 && i + 2 < utf8.length ? String.fromCharCode(utf8[i + 1]!, utf8[i + 2]!) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(utf8[i]!);
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A variable name split as PHP splits it: the base name and the bracketed keys after it (`''` for
 * `[]`). Spaces and dots in the base name become `_` (`per page` is `per_page`); an unclosed first
 * bracket is part of the name, as `_`, with the rest as sent; anything after a closing bracket
 * that does not open another is ignored. Undefined when PHP would not register the variable.
 */
export function splitName(raw: string): { base: string; keys: string[] } | undefined {
  const name = raw.replace(/^ +/, '');
  const open = name.indexOf('[');
  let base = (open < 0 ? name : name.slice(0, open)).replace(/[ .]/g, '_');
  const keys: string[] = [];
  if (open >= 0) {
    let at = open;
    while (name[at] === '[') {
      const close = name.indexOf(']', at + 1);
      if (close < 0) {
        // Only an unclosed first bracket counts: `a[b` is the variable `a_b`.
        if (at === open) base = `${base}_${name.slice(open + 1)}`;
        break;
      }
      keys.push(name.slice(at + 1, close));
      at = close + 1;
    }
  }
  if (base === '' || keys.length > MAX_NESTING) return undefined;
  return { base, keys };
}

const isIndex = (key: string) => /^(0|[1-9]\d{0,8})$/.test(key);

/**
 * Parses `a=1&b[]=2&b[]=3&c[x]=4` into `{ a: '1', b: ['2', '3'], c: { x: '4' } }`. Every object
 * has no prototype, and keys naming the prototype chain are dropped.
 */
export function parseForm(raw: string): Tree {
  const out: Tree = Object.create(null) as Tree;
  const pairs = raw
    .split('&')
    .filter((p) => p !== '')
    .slice(0, MAX_PAIRS);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const split = splitName(urlDecode(eq < 0 ? pair : pair.slice(0, eq)));
    if (!split || UNSAFE_KEYS.has(split.base) || split.keys.some((k) => UNSAFE_KEYS.has(k))) continue;
    assign(out, [split.base, ...split.keys], urlDecode(eq < 0 ? '' : pair.slice(eq + 1)));
  }
  // The top level is always a map of names.
  for (const name of Object.keys(out)) out[name] = lists(out[name]);
  return out;
}

/** Sets the value at `path`, as PHP does: `''` takes the next integer key, a scalar in the way is replaced. */
function assign(root: Tree, path: string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let key = path[i]!;
    if (key === '') {
      const used = Object.keys(node).filter(isIndex).map(Number);
      key = String(used.length ? Math.max(...used) + 1 : 0);
    }
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const child = node[key];
    node = typeof child === 'object' && child !== null ? (child as Tree) : (node[key] = Object.create(null) as Tree);
  }
}

/**
 * Maps whose keys are all integers become lists in key order: WordPress reads list parameters
 * with array_values, so `a[1]=x&a[3]=y` is the list `[x, y]`, and `a[]=x` the list `[x]`.
 */
function lists(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const map = value as Tree;
  const keys = Object.keys(map);
  for (const k of keys) map[k] = lists(map[k]);
  if (keys.length === 0 || !keys.every(isIndex)) return map;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((k) => map[String(k)]);
}
