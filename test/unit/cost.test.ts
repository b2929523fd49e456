import { describe, expect, it } from 'vitest';
import { parseCostInput, presentCost, type StoredCost } from '#lib/domain/cost.js';

const empty: StoredCost = { values: [], symbol: '', position: '', code: '' };
const present = (input: unknown, defaults?: Parameters<typeof presentCost>[1]) => {
  const stored = parseCostInput(input);
  expect(stored).toBeDefined();
  return presentCost(stored, defaults);
};

describe('parseCostInput', () => {
  it('turns null, empty string and empty array into the empty cost', () => {
    expect(parseCostInput(null)).toEqual(empty);
    expect(parseCostInput('')).toEqual(empty);
    expect(parseCostInput('   ')).toEqual(empty);
    expect(parseCostInput([])).toEqual(empty);
  });

  it('rejects objects, booleans, undefined, non-finite numbers and bad array items', () => {
    expect(parseCostInput({ cost: 10 })).toBeUndefined();
    expect(parseCostInput(true)).toBeUndefined();
    expect(parseCostInput(false)).toBeUndefined();
    expect(parseCostInput(undefined)).toBeUndefined();
    expect(parseCostInput(Number.NaN)).toBeUndefined();
    expect(parseCostInput(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(parseCostInput(['10', { a: 1 }])).toBeUndefined();
    expect(parseCostInput(['10', ['20']])).toBeUndefined();
    expect(parseCostInput(['10', null])).toBeUndefined();
  });

  it('keeps trimmed raw strings and stringifies numbers', () => {
    expect(parseCostInput('  25 ')).toEqual({ values: ['25'], symbol: '', position: '', code: '' });
    expect(parseCostInput(23)).toEqual({ values: ['23'], symbol: '', position: '', code: '' });
    expect(parseCostInput(6.5)).toEqual({ values: ['6.5'], symbol: '', position: '', code: '' });
    expect(parseCostInput([10, ' 20 ', ''])).toEqual({ values: ['10', '20'], symbol: '', position: '', code: '' });
  });

  it('detects a postfix symbol', () => {
    expect(parseCostInput('20$')).toEqual({ values: ['20$'], symbol: '$', position: 'postfix', code: '' });
    expect(parseCostInput('6,50 €')).toEqual({ values: ['6,50 €'], symbol: '€', position: 'postfix', code: '' });
    expect(parseCostInput(['0$', '20$', '30$'])).toEqual({
      values: ['0$', '20$', '30$'],
      symbol: '$',
      position: 'postfix',
      code: '',
    });
  });

  it('detects a prefix symbol, including in ranges and multi-character marks', () => {
    expect(parseCostInput('$25')).toMatchObject({ symbol: '$', position: 'prefix' });
    expect(parseCostInput('$10 - $50')).toMatchObject({ values: ['$10 - $50'], symbol: '$', position: 'prefix' });
    expect(parseCostInput('€ 12')).toMatchObject({ symbol: '€', position: 'prefix' });
    expect(parseCostInput('R$15')).toMatchObject({ symbol: 'R$', position: 'prefix' });
    expect(parseCostInput('(£5)')).toMatchObject({ symbol: '£', position: 'prefix' });
  });

  it('takes the symbol from the first value that has one', () => {
    expect(parseCostInput([10, '20€', '$30'])).toMatchObject({ symbol: '€', position: 'postfix' });
  });

  it('does not treat words, plain numbers or range dashes as symbols', () => {
    expect(parseCostInput('Free')).toEqual({ values: ['Free'], symbol: '', position: '', code: '' });
    expect(parseCostInput('Donation')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('0')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('10-50')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('25 EUR')).toMatchObject({ symbol: '', position: '' });
    expect(parseCostInput('-5')).toMatchObject({ symbol: '', position: '' });
  });
});

describe('presentCost', () => {
  it('is empty for no cost', () => {
    const expected = {
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    };
    expect(presentCost(undefined)).toEqual(expected);
    expect(presentCost(empty)).toEqual(expected);
    expect(present(null)).toEqual(expected);
  });

  it("matches TEC's sample 03-event-7: '25' -> '$25' with empty stored symbol", () => {
    const out = present('25');
    expect(out).toEqual({
      cost: '$25',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['25'] },
    });
    expect(JSON.stringify(out.cost_details)).toBe('{"currency_symbol":"","currency_code":"","currency_position":"","values":["25"]}');
  });

  it('formats ranges with an en dash (array or range string)', () => {
    expect(present(['10', '50'])).toEqual({
      cost: '$10 \u2013 $50',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['10', '50'] },
    });
    expect(present('10-50').cost).toBe('$10 \u2013 $50');
    expect(present('10-50').cost_details.values).toEqual(['10', '50']);
    expect(present('$10 - $50')).toEqual({
      cost: '$10 \u2013 $50',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['10', '50'] },
    });
    expect(present([50, 10]).cost).toBe('$10 \u2013 $50');
  });

  it('uses the stored postfix symbol', () => {
    expect(present('20$')).toEqual({
      cost: '20$',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] },
    });
  });

  it("renders zero as Free: ['0$','20$','30$'] -> 'Free – 30$'", () => {
    expect(present(['0$', '20$', '30$'])).toEqual({
      cost: 'Free \u2013 30$',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['0', '20', '30'] },
    });
    expect(present('0').cost).toBe('Free');
    expect(present(0).cost).toBe('Free');
    expect(present('0').cost_details.values).toEqual(['0']);
  });

  it('keeps non-numeric costs as text and slugs them in values', () => {
    expect(present('Donation')).toEqual({
      cost: 'Donation',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['donation'] },
    });
    expect(present('Free').cost).toBe('Free');
    expect(present('Free').cost_details.values).toEqual(['free']);
    expect(present('Pay what you want!').cost_details.values).toEqual(['pay-what-you-want']);
    const mixed = present(['Donation', '$10']);
    expect(mixed.cost).toBe('Donation, $10');
    expect(mixed.cost_details.values).toEqual(['10', 'donation']);
  });

  it('normalises decimal commas and keeps decimals as written', () => {
    expect(present(['6,50', '8.50'])).toEqual({
      cost: '$6.50 \u2013 $8.50',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['6.50', '8.50'] },
    });
    expect(present('6,50 €')).toEqual({
      cost: '6.50€',
      cost_details: { currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: ['6.50'] },
    });
    expect(present(6.5).cost).toBe('$6.5');
  });

  it('treats a comma before exactly three digits as a thousands separator', () => {
    expect(present('$1,000').cost_details.values).toEqual(['1000']);
    expect(present('1.234,50 €').cost_details.values).toEqual(['1234.50']);
    expect(present('$1,234.50').cost_details.values).toEqual(['1234.50']);
  });

  it('sorts numerically and de-duplicates values', () => {
    const out = present(['100', '9', '20', '9', '20.00']);
    expect(out.cost_details.values).toEqual(['9', '20', '100']);
    expect(out.cost).toBe('$9 \u2013 $100');
    expect(present(['15', '15']).cost).toBe('$15');
  });

  it('falls back to the site defaults only when the event has no symbol', () => {
    expect(present('25', { symbol: '€', position: 'postfix' }).cost).toBe('25€');
    expect(present('25', { symbol: '£' }).cost).toBe('£25');
    expect(present('$25', { symbol: '€', position: 'postfix' }).cost).toBe('$25');
    expect(present('25', { symbol: '€', position: 'postfix' }).cost_details).toEqual({
      currency_symbol: '',
      currency_code: '',
      currency_position: '',
      values: ['25'],
    });
  });

  it('passes a stored currency code through and keeps the key order', () => {
    const out = presentCost({ values: ['5'], symbol: '€', position: 'prefix', code: 'EUR' });
    expect(out.cost).toBe('€5');
    expect(Object.keys(out.cost_details)).toEqual(['currency_symbol', 'currency_code', 'currency_position', 'values']);
    expect(out.cost_details.currency_code).toBe('EUR');
    expect(Object.keys(out)).toEqual(['cost', 'cost_details']);
  });
});
