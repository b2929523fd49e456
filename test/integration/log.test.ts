// The request log line (lib/observe/log.ts, wired in lib/http/pipeline.ts): real handlers called as Lambda
// calls them, their stdout and stderr captured and read as JSON.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { handler as indexHandler } from '../../functions/root/index.js';
import { handler as noRouteHandler } from '../../functions/root/noRoute.js';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { roleToken } from '../support/tokens.js';
import { handle } from '#lib/http/pipeline.js';
import { json } from '#lib/contract/reply.js';
import { busy } from '#lib/contract/errors.js';
import { apiEvent, captureOutput, fakeContext, type Captured } from '../support/lambda.js';
import { useFreshTable } from '../support/table.js';

vi.hoisted(() => {
  // Read when the logger is made: the developer's shell must not change what it prints.
  for (const name of ['LOG_LEVEL', 'POWERTOOLS_LOG_LEVEL', 'AWS_LAMBDA_LOG_LEVEL', 'POWERTOOLS_DEV', 'POWERTOOLS_LOGGER_SAMPLE_RATE']) delete process.env[name];
  // Metrics on, so that the secrets checks cover every line a request prints.
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
});

// Signed-in callers' roles are kept in the table.
useFreshTable('log');

const ROOT = '/en/tribe/events/v1';

/** The one request line of a capture. */
function requestLine(c: Captured): Record<string, any> {
  const lines = c.json.filter((l) => l.message === 'request');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

const call = (handler: typeof indexHandler, event = apiEvent('GET', ROOT), context = fakeContext()) => captureOutput(() => handler(event, context));

describe('the request log line', () => {
  it('is one JSON line with the operation, method, path, status, duration, ids, role and units', async () => {
    const event = apiEvent('GET', ROOT);
    const context = fakeContext();
    const out = await call(indexHandler, event, context);
    expect(out.result.statusCode).toBe(200);
    const line = requestLine(out);
    expect(line).toMatchObject({
      level: 'INFO',
      operation: 'root.index',
      method: 'GET',
      path: ROOT,
      status: 200,
      request_id: event.requestContext.requestId,
      correlation_id: event.requestContext.requestId,
      function_request_id: context.awsRequestId,
      role: 'anonymous',
      dynamodb: { requests: 0, read_units: 0, write_units: 0 },
    });
    expect(line.duration_ms).toBeTypeOf('number');
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    // The line is on stdout, one line of JSON.
    expect(out.stdout.split('\n').filter((l) => l.includes('"message":"request"'))).toHaveLength(1);
    expect(out.result.headers?.['x-request-id']).toBe(event.requestContext.requestId);
  });

  it('takes the correlation id from X-Request-Id and echoes it', async () => {
    const out = await call(indexHandler, apiEvent('GET', ROOT, { 'x-request-id': 'client-id-42' }));
    expect(requestLine(out).correlation_id).toBe('client-id-42');
    expect(out.result.headers?.['x-request-id']).toBe('client-id-42');
  });

  it('takes the trace id of a traceparent header when there is no X-Request-Id', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const out = await call(indexHandler, apiEvent('GET', ROOT, { traceparent }));
    expect(requestLine(out).correlation_id).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(out.result.headers?.['x-request-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');

    const both = await call(indexHandler, apiEvent('GET', ROOT, { traceparent, 'x-request-id': 'mine' }));
    expect(requestLine(both).correlation_id).toBe('mine');
  });

  it('ignores an X-Request-Id it could not echo safely, and an invalid traceparent', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    for (const bad of ['has spaces', 'x'.repeat(200)]) {
      const out = await call(indexHandler, apiEvent('GET', ROOT, { 'x-request-id': bad, traceparent }));
      expect(requestLine(out).correlation_id, bad).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    }
    const event = apiEvent('GET', ROOT, { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' });
    const out = await call(indexHandler, event);
    expect(requestLine(out).correlation_id).toBe(event.requestContext.requestId);
  });

  it("logs the caller's role: the token's, or none for a user without one", async () => {
    const keys = await ensureDevKeys('.local');
    for (const role of ['contributor', 'author', 'editor'] as const) {
      const out = await call(indexHandler, apiEvent('GET', ROOT, { authorization: `Bearer ${await mintToken(keys, { role })}` }));
      expect(out.result.statusCode, role).toBe(200);
      expect(requestLine(out).role).toBe(role);
    }
    const out = await call(indexHandler, apiEvent('GET', ROOT, { authorization: `Bearer ${await mintToken(keys, {})}` }));
    expect(requestLine(out).role).toBe('none');
  });

  it('never prints the Authorization header, a token, a password or the query string', async () => {
    const token = await roleToken('editor');
    const basic = `Basic ${Buffer.from('someone:s3cret-app-pass').toString('base64')}`;
    const printed: string[] = [];
    for (const authorization of [`Bearer ${token}`, basic, 'Bearer not-a-valid-token-xyz']) {
      const out = await call(indexHandler, apiEvent('GET', `${ROOT}?password=hunter2-query`, { authorization, 'x-custom-header': 'custom-value' }));
      expect(requestLine(out).path).toBe(ROOT);
      printed.push(out.stdout, out.stderr);
    }
    const all = printed.join('\n');
    expect(all).toContain('"message":"request"');
    for (const secret of [token, token.split('.')[2]!, basic, 's3cret-app-pass', 'not-a-valid-token-xyz', 'hunter2-query', 'custom-value']) {
      expect(all).not.toContain(secret);
    }
    expect(all.toLowerCase()).not.toContain('authorization');
  });

  it('counts the DynamoDB requests and units of its own request, also when requests overlap', async () => {
    const get = () => db().send(new GetCommand({ TableName: config().tableName, Key: { pk: 'log-test', sk: 'missing' } }));
    const one = handle('root.index', async () => {
      await get();
      return json(200, {});
    });
    const three = handle('root.index', async () => {
      for (let i = 0; i < 3; i++) await get();
      return json(200, {});
    });
    const a = apiEvent('GET', ROOT);
    const b = apiEvent('GET', ROOT);
    capacity.reset();
    const out = await captureOutput(() => Promise.all([three(b, fakeContext()), one(a, fakeContext()), get()]));
    const lines = out.json.filter((l) => l.message === 'request');
    expect(lines).toHaveLength(2);
    const lineA = lines.find((l) => l.request_id === a.requestContext.requestId)!;
    const lineB = lines.find((l) => l.request_id === b.requestContext.requestId)!;
    expect(lineA.dynamodb.requests).toBe(1);
    expect(lineB.dynamodb.requests).toBe(3);
    expect(lineA.dynamodb.read_units).toBeGreaterThan(0);
    expect(lineB.dynamodb.read_units).toBe(3 * lineA.dynamodb.read_units);
    expect(lineA.dynamodb.write_units).toBe(0);
    // The process tally still counts everything, inside requests or not.
    expect(capacity.snapshot().requests).toBe(5);
  });

  it('logs an unhandled error at ERROR with its stack, and answers 500', async () => {
    const failing = handle('root.index', async () => {
      throw new Error('kaput for the log test');
    });
    const event = apiEvent('GET', ROOT, { 'x-request-id': 'err-1' });
    const out = await call(failing, event);
    expect(out.result.statusCode).toBe(500);
    const errors = out.json.filter((l) => l.level === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      message: 'Unhandled error',
      operation: 'root.index',
      request_id: event.requestContext.requestId,
      correlation_id: 'err-1',
      error: { name: 'Error', message: 'kaput for the log test' },
    });
    expect(errors[0]!.error.stack).toMatch(/kaput for the log test\n\s+at /);
    expect(out.stderr).toContain('kaput for the log test');
    expect(requestLine(out)).toMatchObject({ status: 500, correlation_id: 'err-1' });
  });

  it('sends Retry-After with a 503 an operation answers itself (busy: a series still being written)', async () => {
    const waiting = handle('root.index', async () => {
      throw busy();
    });
    const out = await call(waiting, apiEvent('GET', ROOT, { 'x-request-id': 'busy-1' }));
    expect(out.result.statusCode).toBe(503);
    expect(JSON.parse(out.result.body!)).toMatchObject({ code: 'rest_busy', data: { status: 503, retry_after: 1 } });
    expect(out.result.headers?.['retry-after']).toBe('1');
  });

  it('answers 503 rest_busy with Retry-After just before the function times out, with the error and the request line logged', async () => {
    const slow = handle('root.index', async () => {
      await new Promise((r) => setTimeout(r, 2_000));
      return json(200, { late: true });
    });
    const deadline = Date.now() + 700;
    const context = { ...fakeContext(), getRemainingTimeInMillis: () => deadline - Date.now() };
    const started = Date.now();
    const out = await call(slow, apiEvent('GET', ROOT, { 'x-request-id': 'slow-1' }), context);
    const took = Date.now() - started;
    expect(out.result.statusCode).toBe(503);
    expect(JSON.parse(out.result.body!)).toMatchObject({ code: 'rest_busy', data: { status: 503 } });
    expect(out.result.headers?.['retry-after']).toBe('1');
    // Answered at the deadline, not at once and not after the operation.
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(1_500);
    expect(out.json.filter((l) => l.level === 'ERROR')).toMatchObject([{ correlation_id: 'slow-1', error: { name: 'TimeoutError' } }]);
    expect(requestLine(out)).toMatchObject({ status: 503, correlation_id: 'slow-1' });
  });

  it('is written by the no-route fallback too, as root.noRoute', async () => {
    const event = apiEvent('GET', '/nothing/here', { 'x-request-id': 'lost-1' });
    const out = await call(noRouteHandler, event);
    expect(out.result.statusCode).toBe(404);
    expect(requestLine(out)).toMatchObject({
      operation: 'root.noRoute',
      method: 'GET',
      path: '/nothing/here',
      status: 404,
      role: 'anonymous',
      correlation_id: 'lost-1',
      request_id: event.requestContext.requestId,
    });
    expect(out.result.headers?.['x-request-id']).toBe('lost-1');
  });

  it('follows LOG_LEVEL: WARN leaves request lines out and keeps errors', async () => {
    vi.resetModules();
    process.env.LOG_LEVEL = 'WARN';
    try {
      const { handler } = await import('../../functions/root/index.js');
      const quiet = await call(handler);
      expect(quiet.result.statusCode).toBe(200);
      expect(quiet.json.filter((l) => l.message === 'request')).toEqual([]);
      const pipeline = await import('#lib/http/pipeline.js');
      const failing = pipeline.handle('root.index', async () => {
        throw new Error('still shown');
      });
      const loud = await call(failing);
      expect(loud.json.filter((l) => l.level === 'ERROR')).toHaveLength(1);
    } finally {
      delete process.env.LOG_LEVEL;
      vi.resetModules();
    }
  });
});
