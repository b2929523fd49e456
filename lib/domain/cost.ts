// Event cost: parsing the `cost` input of create/update, and TEC's presentation of it as
// `cost` (a human string) and `cost_details` (symbol, code, position, numeric values).

export interface StoredCost {
  values: string[];
  symbol: string;
  position: '' | 'prefix' | 'postfix';
  code: string;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

const EMPTY: StoredCost = { values: [], symbol: '', position: '', code: '' };

/** A run of digits with optional `.`/`,` separated groups: 1, 6.50, 6,50, 1,000, 1.000,50 … */
const NUMBER_RE = /\d+(?:[.,]\d+)*/g;

/** Characters that may appear next to a number without being a currency mark. */
const NOT_A_MARK_RE = /^[\p{L}\p{M}\-+.,:;()~\u2013\u2014'"/]*$/u;

/** One scalar of the input as a trimmed string, or undefined when it is not a string/number. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  return undefined;
}

/** Punctuation around a mark that is not part of it: '(€' -> '€', '€.' -> '€'. */
const EDGE_PUNCT_RE = /^[-+.,:;()~\u2013\u2014'"/!?*]+|[-+.,:;()~\u2013\u2014'"/!?*]+$/g;

/** The currency mark ('$', '€', 'R$', 'US$') in `run`, or '' for a word ('Free') or punctuation. */
function markOf(run: string): string {
  const mark = run.replace(EDGE_PUNCT_RE, '');
  return mark !== '' && !NOT_A_MARK_RE.test(mark) ? mark : '';
}

/** The currency mark of one cost string and where it sits, if it carries one. */
function findMark(value: string): { symbol: string; position: 'prefix' | 'postfix' } | undefined {
  const lead = /^([^\d\s]+)\s*\d/u.exec(value);
  const prefix = lead ? markOf(lead[1]!) : '';
  if (prefix !== '') return { symbol: prefix, position: 'prefix' };
  const trail = /\d\s*([^\d\s]+)$/u.exec(value);
  const postfix = trail ? markOf(trail[1]!) : '';
  if (postfix !== '') return { symbol: postfix, position: 'postfix' };
  return undefined;
}

/**
 * Parses the `cost` input of an event create/update: a string, a number, or an array of those.
 * null / '' / [] give the empty cost; anything else (objects, booleans, undefined, NaN, nested
 * arrays) gives undefined so the caller can answer 400.
 */
export function parseCostInput(input: unknown): StoredCost | undefined {
  if (input === null) return { ...EMPTY, values: [] };
  const items = Array.isArray(input) ? input : [input];
  const values: string[] = [];
  for (const item of items) {
    const value = scalar(item);
    if (value === undefined) return undefined;
    if (value !== '') values.push(value);
  }
  let symbol = '';
  let position: StoredCost['position'] = '';
  for (const value of values) {
    const mark = findMark(value);
    if (mark) {
      symbol = mark.symbol;
      position = mark.position;
      break;
    }
  }
  return { values, symbol, position, code: '' };
}

/** A cost shown with the currency a site stored for it (an imported event's), rather than the one its text suggests. */
export function withCurrency(cost: StoredCost | undefined, currency: { symbol: string; code: string; position: string } | undefined): StoredCost | undefined {
  if (!currency) return cost;
  const position = currency.position === 'prefix' || currency.position === 'postfix' ? currency.position : '';
  return { ...(cost ?? EMPTY), symbol: currency.symbol, code: currency.code, position };
}

/**
 * Normalises one number token to a '.'-decimal string, keeping the digits as written.
 * A lone ',' is a decimal comma unless exactly three digits follow it ('1,000' is a thousand);
 * with both separators present the last one is the decimal mark; repeated separators of one kind
 * are thousands separators.
 */
function normaliseNumber(token: string): string {
  const commas = (token.match(/,/g) ?? []).length;
  const dots = (token.match(/\./g) ?? []).length;
  if (commas === 0 && dots === 0) return token;
  if (commas > 0 && dots > 0) {
    const decimal = token.lastIndexOf(',') > token.lastIndexOf('.') ? ',' : '.';
    const thousands = decimal === ',' ? '.' : ',';
    return token.split(thousands).join('').replace(decimal, '.');
  }
  const sep = commas > 0 ? ',' : '.';
  const count = commas + dots;
  if (count > 1) return token.split(sep).join('');
  if (sep === ',' && /,\d{3}$/.test(token)) return token.replace(',', '');
  return token.replace(',', '.');
}

/** Lower-case slug of a non-numeric cost ('Donation' -> 'donation', 'Pay what you want!' -> 'pay-what-you-want'). */
function costSlug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * TEC's presentation of a stored cost: `{ cost, cost_details }` (cost_details keys in TEC's order).
 * See the module tests for the exact strings.
 */
export function presentCost(stored: StoredCost | undefined, defaults: { symbol?: string; position?: 'prefix' | 'postfix' } = {}): { cost: string; cost_details: CostDetails } {
  const s = stored ?? EMPTY;
  const numbers: { text: string; value: number }[] = [];
  const slugs: string[] = [];
  let allNumeric = true;
  for (const raw of s.values) {
    const tokens = raw.match(NUMBER_RE);
    if (!tokens) {
      allNumeric = false;
      const slug = costSlug(raw);
      if (slug !== '' && !slugs.includes(slug)) slugs.push(slug);
      continue;
    }
    for (const token of tokens) {
      const text = normaliseNumber(token);
      const value = Number(text);
      if (!Number.isFinite(value)) continue;
      if (!numbers.some((n) => n.value === value)) numbers.push({ text, value });
    }
  }
  numbers.sort((a, b) => a.value - b.value);

  const cost_details: CostDetails = {
    currency_symbol: s.symbol,
    currency_code: s.code,
    currency_position: s.position,
    values: [...numbers.map((n) => n.text), ...slugs],
  };

  let cost = '';
  if (s.values.length > 0) {
    if (!allNumeric || numbers.length === 0) {
      cost = s.values.join(', ');
    } else {
      const symbol = s.symbol !== '' ? s.symbol : (defaults.symbol ?? '$');
      const position = s.position !== '' ? s.position : (defaults.position ?? 'prefix');
      const format = (n: { text: string; value: number }) => (n.value === 0 ? 'Free' : position === 'postfix' ? `${n.text}${symbol}` : `${symbol}${n.text}`);
      const min = numbers[0]!;
      const max = numbers[numbers.length - 1]!;
      cost = min.value === max.value ? format(min) : `${format(min)} \u2013 ${format(max)}`;
    }
  }
  return { cost, cost_details };
}
