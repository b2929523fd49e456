// Assertions on WordPress-style error envelopes, shared by the end-to-end tests.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiResponse, GatewayHarness, Lang } from './gateway.js';

/** Expects a WordPress-style error envelope with this status and code. */
export function expectError(res: ApiResponse, status: number, code: string, message?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  expect(res.body.code, res.text).toBe(code);
  expect(res.body.data.status).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

/** Expects 400 rest_invalid_param naming exactly these parameters, each with a reason. */
export function expectInvalidParams(res: ApiResponse, ...names: string[]): void {
  expectError(res, 400, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`);
  expect(Object.keys(res.body.data.params).sort()).toEqual([...names].sort());
  for (const name of names) expect(typeof res.body.data.params[name]).toBe('string');
}

/**
 * POSTs a record as an editor, expects 201 and returns the created record. It is sent with an
 * Idempotency-Key, and a 503 (`rest_busy`: the machine too loaded to finish in time, nothing was
 * written; or `rest_outcome_unknown`) is sent again with the same key after its Retry-After, as a
 * careful client does, so that seeding holds on a busy test machine and never makes a record twice.
 */
export async function createAsEditor(gw: GatewayHarness, path: string, body: Record<string, unknown>, lang?: Lang): Promise<any> {
  const headers = { 'idempotency-key': randomUUID() };
  let res = await gw.api('POST', path, { body, token: 'editor', lang, headers });
  for (let tries = 1; res.status === 503 && tries < 15; tries++) {
    await new Promise((ok) => setTimeout(ok, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    res = await gw.api('POST', path, { body, token: 'editor', lang, headers });
  }
  expect(res.status, `${path}: ${res.text}`).toBe(201);
  return res.body;
}

/** TEC's answer where no route matches: WordPress's `rest_no_route`. */
export const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
/** TEC's answer for a list page past the last one. */
export const PAGE_NOT_FOUND = { code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist', data: { status: 404 } };
