// Reading a header of an API Gateway event whatever the case of its name (lib/runtime/headers.ts).
import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { header } from '#lib/runtime/headers.js';

const event = (headers: Record<string, string>) => ({ headers }) as unknown as APIGatewayProxyEventV2;

describe('header', () => {
  it('finds a name API Gateway gave in lower case, asked in any case', () => {
    const e = event({ authorization: 'Bearer x', 'if-none-match': '"a"' });
    expect(header(e, 'Authorization')).toBe('Bearer x');
    expect(header(e, 'IF-NONE-MATCH')).toBe('"a"');
    expect(header(e, 'origin')).toBeUndefined();
  });

  it('finds a name given in another case (an event written by hand), the first of names that differ only in case', () => {
    const e = event({ 'Content-Type': 'application/json', 'X-Tec-Eea': 'one', 'x-tec-eea': 'two' });
    expect(header(e, 'content-type')).toBe('application/json');
    expect(header(e, 'x-tec-eea')).toBe('two');
    expect(header(e, 'origin')).toBeUndefined();
  });

  it('answers no header for names of the prototype chain unless they were sent', () => {
    expect(header(event({ host: 'h' }), 'constructor')).toBeUndefined();
    expect(header(event({ host: 'h' }), 'toString')).toBeUndefined();
    expect(header(event({ Host: 'h' }), '__proto__')).toBeUndefined();
    expect(header(event(Object.fromEntries([['constructor', 'y']])), 'constructor')).toBe('y');
  });
});
