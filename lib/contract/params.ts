// Parameter types in WordPress's manner: each argument has a zod schema that both validates and
// coerces, a declared type for the documentation, a description, a required flag and a default.
// Query strings carry only strings, so the schemas accept the string forms of numbers, booleans
// and lists; JSON bodies may send the real types.
import * as z from 'zod/mini';
import { parseSearch } from '#lib/domain/search-terms.js';
import { phpTrim } from '#lib/wp/php.js';

export type DocType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface Arg<T = unknown> {
  schema: z.ZodMiniType<T>;
  description: string;
  /** The declared type, as the namespace index and OpenAPI show it. Absent for untyped args. */
  type?: DocType;
  items?: DocType;
  /** The most items a list takes (lib/contract/budget.ts derives each from what one item costs). */
  maxItems?: number;
  format?: string;
  enum?: readonly string[];
  required?: boolean;
  default?: unknown;
  /** A path segment (`{id}`, `{slug}`…): its value is in the request's `path`, not its parameters. */
  path?: true;
  /** A path argument the body may carry too, with this meaning (a by-slug update's `slug` renames). */
  inBody?: Arg;
  /**
   * HTML filtering on save, as WordPress's kses does it for users without `unfiltered_html`
   * (everyone but editors): `post` for content, `title` for titles and one-line fields,
   * `termDescription` for term descriptions, `termName` for term names (sanitize_text_field,
   * kses and entities, as WordPress saves them). `always` filters editors' values too.
   */
  html?: { filter: HtmlFilter; always?: boolean };
  /**
   * How a refusal of the value is worded where refusals are plain (TEC's `tec/v1` routes: their
   * typed arguments say what they take; `{param}` stands for the argument's name, or `argument`
   * when it names another). Only for values `applies` takes, when given; others are refused plainly.
   */
  refusal?: { code: string; message: string; details: string; argument?: string; applies?: (value: unknown) => boolean };
}

export type HtmlFilter = 'post' | 'title' | 'termDescription' | 'termName' | 'meta';
/** The filter functions (lib/contract/html-filters.ts), handed to the pipeline by the functions that need them. */
export type HtmlFilters = Record<HtmlFilter, (html: string) => string>;

export type Args = Record<string, Arg>;

/** Whether a validated request always has the argument: it is required or has a default. */
type Always<A> = NonNullable<A> extends { required: true } ? true : NonNullable<A> extends { default: unknown } ? true : false;
type ValueOf<A> = NonNullable<A> extends { schema: infer S extends z.ZodMiniType } ? z.output<S> : unknown;

/**
 * The validated parameters of an argument table, typed from its schemas: what the pipeline hands
 * an operation (path segments are in the request's `path` instead).
 */
export type Params<T extends Args> = {
  [K in keyof T as T[K] extends { path: true } ? never : Always<T[K]> extends true ? K : never]: ValueOf<T[K]>;
} & {
  [K in keyof T as T[K] extends { path: true } ? never : Always<T[K]> extends true ? never : K]?: ValueOf<T[K]>;
};

/** Whether any argument is filtered as HTML on save. */
export const takesHtml = (args: Args): boolean => Object.values(args).some((arg) => arg.html !== undefined);

/**
 * The code WordPress's schema validation gives a refusal (`rest_validate_value_from_schema`), which
 * its core routes report in `details`; TEC's routes validate by callback and report none.
 */
export type SchemaCode = 'rest_invalid_type' | 'rest_not_in_enum' | 'rest_out_of_bounds' | 'rest_too_many_items';

/**
 * Records a refusal of the value in `ctx`, with WordPress's schema code when it has one; `item`
 * names the list item at fault, which WordPress's message names as `param[item]`.
 */
export const refuseValue = (ctx: { issues: unknown[] }, value: unknown, message: string, code?: SchemaCode, item?: number) => {
  (ctx.issues as { code: string; message: string; input: unknown; params?: { schemaCode: SchemaCode; item?: number } }[]).push({
    code: 'custom',
    message,
    input: value,
    ...(code ? { params: { schemaCode: code, ...(item === undefined ? {} : { item }) } } : {}),
  });
  return z.NEVER;
};

const fail = (ctx: { issues: unknown[]; value: unknown }, message: string, code?: SchemaCode) => refuseValue(ctx, ctx.value, message, code);

/**
 * A string (a body's values may carry control characters: lib/http/codec.ts). `nonEmpty` rejects ""
 * as TEC does for titles, descriptions and slugs; `notZero` rejects "0" as TEC does for titles,
 * descriptions and names.
 */
export function str(opts: { nonEmpty?: boolean; max?: number; notZero?: boolean } = {}) {
  const max = opts.max ?? 65_535;
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      if (typeof value !== 'string') return fail({ ...ctx, value }, 'is not of type string.', 'rest_invalid_type');
      // Empty as WordPress finds a title empty ("Content, title, and excerpt are empty"): after PHP's
      // trim(), which takes spaces, NUL and \v but leaves other control characters, so an editor's
      // "\u0007" is a title (kses takes control characters out for the others first: validate.ts).
      if (opts.nonEmpty && phpTrim(value) === '') return fail({ ...ctx, value }, 'must not be empty.');
      // PHP's empty('0') is true: TEC refuses a title, description or name of exactly "0".
      if (opts.notZero && value === '0') return fail({ ...ctx, value }, 'must not be empty.');
      if (value.length > max) return fail({ ...ctx, value }, `must be at most ${max} characters long.`);
      return value;
    }),
  );
}

/** An integer given as a JSON number or a string of digits. */
export function int(opts: { min?: number } = {}) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) return fail({ ...ctx, value }, 'is not of type integer.', 'rest_invalid_type');
      if (opts.min !== undefined && n < opts.min) return fail({ ...ctx, value }, `must be greater than or equal to ${opts.min}`, 'rest_out_of_bounds');
      return n;
    }),
  );
}

const TINY = 1e-12;

/** A floating-point number, as a JSON number or a numeric string. */
export function num(opts: { min?: number; max?: number } = {}) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail({ ...ctx, value }, 'is not of type number.', 'rest_invalid_type');
      if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) return fail({ ...ctx, value }, `must be between ${opts.min} and ${opts.max}.`);
      // Magnitudes below 1e-12 become 0 (and -0 becomes 0): DynamoDB stores none below 1e-130,
      // and for every quantity here (degrees, kilometres) 1e-12 is below any meaning.
      return Math.abs(n) < TINY ? 0 : n;
    }),
  );
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off', '']);

/** Parses the boolean forms this API accepts everywhere (docs/tec-behaviour.md §1.9); undefined if none. */
export function parseBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
  }
  return undefined;
}

/** A boolean: JSON booleans, 1/0, or the strings true|false|1|0|yes|no|on|off. */
export function bool() {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const b = parseBool(value);
      return b === undefined ? fail({ ...ctx, value }, 'is not of type boolean.', 'rest_invalid_type') : b;
    }),
  );
}

/** Splits a CSV string or takes an array; trims items and drops empty ones. */
export function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value.filter((v) => !(typeof v === 'string' && v.trim() === ''));
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
  if (typeof value === 'number') return [value];
  return undefined;
}

/** A list of more than `max` items is refused before anything is read (lib/contract/budget.ts). */
const tooMany = (items: unknown[], max: number | undefined, noun: string) => (max !== undefined && items.length > max ? `must contain at most ${max} ${noun}.` : undefined);

/** A list of positive integer ids, as an array or a CSV string; at most `max` of them. */
export function idList(opts: { max?: number } = {}) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items) return fail({ ...ctx, value }, 'is not a list of ids.');
      const long = tooMany(items, opts.max, 'ids');
      if (long) return fail({ ...ctx, value }, long);
      const ids = items.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN));
      if (ids.some((n) => !Number.isSafeInteger(n) || n < 1)) return fail({ ...ctx, value }, 'must contain positive integer ids only.');
      return [...new Set(ids)];
    }),
  );
}

/** Post statuses, as a CSV string or a list (`status[]=publish&status[]=draft`, as TEC takes them), joined as CSV. */
export function statusList() {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items?.length || items.some((v) => typeof v !== 'string')) return fail({ ...ctx, value }, 'is not a post status or a list of them.');
      return (items as string[]).map((v) => v.trim()).join(',');
    }),
  );
}

/** A list of ids or slugs (term filters), as an array or a CSV string; at most `max` of them. */
export function idOrSlugList(opts: { max?: number } = {}) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items || items.some((v) => typeof v !== 'string' && typeof v !== 'number')) return fail({ ...ctx, value }, 'is not a list of ids or slugs.');
      const long = tooMany(items, opts.max, 'ids or slugs');
      if (long) return fail({ ...ctx, value }, long);
      return items.map((v) => (typeof v === 'number' || /^\d+$/.test(v as string) ? Number(v) : String(v)));
    }),
  );
}

/** One of a fixed set of strings. */
export function oneOf<const T extends string>(values: readonly T[]) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) =>
      typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : fail({ ...ctx, value }, `is not one of ${values.join(', ')}.`),
    ),
  );
}

/** A value checked by `check`, which returns an error text or undefined. Keeps the raw value. */
export function checked<T>(check: (value: unknown) => string | undefined) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const why = check(value);
      return why ? fail({ ...ctx, value }, why) : (value as T);
    }),
  );
}

/**
 * A list filter of ids (or ids and slugs) that takes at most `max` values: the documents show the
 * limit as `maxItems`.
 */
export const listArg = <S>(schema: (opts: { max: number }) => S, max: number, description: string) => ({
  schema: schema({ max }),
  type: 'array' as const,
  items: 'integer' as const,
  maxItems: max,
  description,
});

/**
 * Terms to search for, as WordPress splits them (lib/domain/search-terms.ts): each term to find
 * is one more index partition to read, so a search takes at most `maxWords` of them.
 */
export function searchText(opts: { max: number; maxWords: number }) {
  return z.pipe(
    str({ nonEmpty: true, max: opts.max }),
    z.transform((value, ctx) => (parseSearch(value).include.length > opts.maxWords ? fail({ ...ctx, value }, `must contain at most ${opts.maxWords} words.`) : value)),
  );
}
