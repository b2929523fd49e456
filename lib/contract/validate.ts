// WordPress-style validation of a request's arguments against an operation's argument table.
import { invalidParams, missingParams } from './errors.js';
import type { Args, HtmlFilters, Params } from './params.js';
import type { Input } from './request.js';

export interface ValidateOptions {
  /** Path arguments, checked elsewhere. */
  skip?: readonly string[];
  /** The caller may post unfiltered HTML (WordPress's `unfiltered_html`: editors). */
  unfilteredHtml?: boolean;
  /** The HTML filters (lib/contract/html-filters.ts); required when an argument is filtered. */
  filters?: HtmlFilters;
  /**
   * Report each refusal's schema code in `details`, as WordPress's core routes do (their arguments
   * are checked against a schema; TEC's by callbacks, which give no details).
   */
  schemaDetails?: boolean;
  /**
   * Word each refusal as TEC's `tec/v1` routes do: in the argument's own words when it has them
   * (`refusal`, with their details), else only "Invalid parameter.".
   */
  plainRefusals?: boolean;
}

/** WordPress names the parameter in the data of a type refusal only. */
const detail = (param: string, code: string, message: string) => ({ code, message, data: code === 'rest_invalid_type' ? { param } : null });

/** An argument table's rows, and its defaults that parse to plain values (parsed once: every request takes them). */
const tables = new WeakMap<Args, { entries: [string, Args[string]][]; defaults: Map<string, unknown> }>();

function tableOf(args: Args) {
  let table = tables.get(args);
  if (!table) {
    const entries = Object.entries(args);
    const defaults = new Map<string, unknown>();
    for (const [name, arg] of entries) {
      // A default the table computes (a getter, such as the site's page size) is parsed anew for
      // each request, and so is a list or an object, which the request may change.
      if (arg.default === undefined || !('value' in (Object.getOwnPropertyDescriptor(arg, 'default') ?? {}))) continue;
      const parsed = arg.schema.safeParse(arg.default);
      if (parsed.success && (parsed.data === null || typeof parsed.data !== 'object')) defaults.set(name, parsed.data);
    }
    table = { entries, defaults };
    tables.set(args, table);
  }
  return table;
}

/**
 * Validates `input` against `args` in WordPress's order: missing required first, then values.
 * Text arguments that carry HTML are filtered as WordPress filters them on save, and then
 * checked again (a title of only `<script></script>` is empty once filtered).
 */
export function validateArgs<A extends Args>(
  args: A,
  input: Input,
  { skip = [], unfilteredHtml = false, filters, schemaDetails = false, plainRefusals = false }: ValidateOptions = {},
): Params<A> {
  const { entries, defaults } = tableOf(args);
  const missing = entries.filter(([name, arg]) => arg.required && !skip.includes(name) && (input[name] === undefined || input[name] === null)).map(([name]) => name);
  if (missing.length) throw missingParams(missing);
  const out: Record<string, unknown> = {};
  const bad: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const [name, arg] of entries) {
    if (skip.includes(name)) continue;
    const raw = input[name];
    if (raw === undefined || raw === null) {
      if (arg.default !== undefined) out[name] = defaults.has(name) ? defaults.get(name) : arg.schema.parse(arg.default);
      continue;
    }
    let result = arg.schema.safeParse(raw);
    if (result.success && arg.html && typeof result.data === 'string' && (arg.html.always || !unfilteredHtml)) {
      if (!filters) throw new Error(`${name} is filtered as HTML, but no filters were given`);
      const filtered = filters[arg.html.filter](result.data);
      if (filtered !== result.data) result = arg.schema.safeParse(filtered);
    }
    if (result.success) out[name] = result.data;
    else {
      const issue = result.error.issues[0] as { message?: string; params?: { schemaCode?: string; item?: number } } | undefined;
      const item = issue?.params?.item;
      const shown = item === undefined ? name : `${name}[${item}]`;
      if (plainRefusals) {
        const refusal = arg.refusal && (arg.refusal.applies?.(raw) ?? true) ? arg.refusal : undefined;
        const argument = refusal?.argument ?? name;
        const words = (text: string) => text.replaceAll('{param}', argument);
        bad[name] = refusal ? words(refusal.message) : 'Invalid parameter.';
        if (refusal) details[name] = { code: refusal.code, message: bad[name], data: { status: 400, argument, details: words(refusal.details) } };
        continue;
      }
      bad[name] = `${shown} ${issue?.message ?? 'is invalid.'}`;
      const code = issue?.params?.schemaCode;
      if (schemaDetails && code) details[name] = detail(shown, code, bad[name]);
    }
  }
  if (Object.keys(bad).length) throw invalidParams(bad, details);
  // Each value passed its argument's schema (or is its default): the table's types hold.
  return out as Params<A>;
}
