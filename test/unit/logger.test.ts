// The JSON log lines (lib/observe/logger.ts): their shape, levels, streams and error objects, as a log
// query reads them.
import { afterEach, describe, expect, it } from 'vitest';
import { JsonLogger, logThreshold, withLogWriter } from '#lib/observe/logger.js';
import { captureOutput } from '../support/lambda.js';

const quiet = { LOG_LEVEL: undefined, POWERTOOLS_LOG_LEVEL: undefined, AWS_LAMBDA_LOG_LEVEL: undefined };
const trace = process.env._X_AMZN_TRACE_ID;
afterEach(() => {
  if (trace === undefined) delete process.env._X_AMZN_TRACE_ID;
  else process.env._X_AMZN_TRACE_ID = trace;
});

describe('JsonLogger', () => {
  it('writes one line: level, message, timestamp, service, then the fields, in that order', async () => {
    delete process.env._X_AMZN_TRACE_ID;
    const log = new JsonLogger('svc', quiet);
    const out = await captureOutput(async () => log.info({ message: 'request', status: 200, nested: { n: 1 }, gone: undefined }));
    expect(out.stderr).toBe('');
    expect(out.stdout.endsWith('\n')).toBe(true);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    const line = JSON.parse(out.stdout);
    expect(Object.keys(line)).toEqual(['level', 'message', 'timestamp', 'service', 'status', 'nested']);
    expect(line).toMatchObject({ level: 'INFO', message: 'request', service: 'svc', status: 200, nested: { n: 1 } });
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
  });

  it('adds the X-Ray trace id Lambda sets', async () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    const out = await captureOutput(async () => new JsonLogger('svc', quiet).info({ message: 'm' }));
    expect(JSON.parse(out.stdout).xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });

  it('writes WARN and ERROR to stderr, INFO and DEBUG to stdout', async () => {
    const log = new JsonLogger('svc', { ...quiet, LOG_LEVEL: 'DEBUG' });
    const out = await captureOutput(async () => {
      log.debug({ message: 'd' });
      log.info({ message: 'i' });
      log.warn({ message: 'w' });
      log.error({ message: 'e' });
    });
    const levels = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).level);
    expect(levels(out.stdout)).toEqual(['DEBUG', 'INFO']);
    expect(levels(out.stderr)).toEqual(['WARN', 'ERROR']);
  });

  it('writes errors with name, location, message, stack and cause, wherever they are', async () => {
    const inner = new TypeError('inner');
    const err = new Error('outer', { cause: inner });
    const out = await captureOutput(async () =>
      new JsonLogger('svc', quiet).error({ message: 'failed', error: err, deep: { list: [new RangeError('r')] }, plain: { cause: 'x' } }),
    );
    const line = JSON.parse(out.stderr);
    expect(line.error).toMatchObject({ name: 'Error', message: 'outer', stack: err.stack, cause: { name: 'TypeError', message: 'inner', stack: inner.stack } });
    expect(line.error.location).toMatch(/logger\.test\.ts:\d+$/);
    expect(line.deep.list[0]).toMatchObject({ name: 'RangeError', message: 'r' });
    expect(line.plain).toEqual({ cause: 'x' });
  });

  it("keeps an error's own fields (the SDK's metadata, Node's code) and survives a cause that loops", async () => {
    const sdk = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, requestId: 'R1', attempts: 1 },
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
    });
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    const out = await captureOutput(async () => new JsonLogger('svc', quiet).error({ message: 'failed', error: sdk, loop: a }));
    const line = JSON.parse(out.stderr);
    expect(line.error).toMatchObject({
      name: 'TransactionCanceledException',
      $fault: 'client',
      $metadata: { requestId: 'R1' },
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
    });
    expect(line.loop).toMatchObject({ message: 'a', cause: { message: 'b', cause: '[Circular]' } });
  });

  it('leaves out fields without a value, and still writes a line when a field cannot be read', async () => {
    const hostile = {
      get boom(): string {
        throw new Error('no');
      },
    };
    const log = new JsonLogger('svc', quiet);
    const out = await captureOutput(async () => {
      log.info({ message: 'empty', path: '', role: null, id: undefined, zero: 0, no: false });
      log.info({ message: 'hostile', hostile });
    });
    const [empty, broken] = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(empty)).toEqual(['level', 'message', 'timestamp', 'service', 'zero', 'no']);
    expect(broken).toMatchObject({ level: 'INFO', message: 'hostile', service: 'svc' });
    expect(broken.log_error).toContain('no');
  });

  it('writes BigInts as strings and still writes a line whose fields hold a cycle', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const out = await captureOutput(async () => new JsonLogger('svc', quiet).info({ message: 'm', big: 2n ** 70n, cyclic }));
    const line = JSON.parse(out.stdout);
    expect(line.big).toBe('1180591620717411303424');
    expect(line.cyclic).toEqual({ name: 'loop' });
  });

  it('hands the line to the writer of the scope instead', async () => {
    const got: [string, string][] = [];
    const log = new JsonLogger('svc', quiet);
    const out = await captureOutput(async () =>
      withLogWriter(
        (json, level) => got.push([json, level]),
        () => log.warn({ message: 'w' }),
      ),
    );
    expect(out.stdout + out.stderr).toBe('');
    expect(got).toHaveLength(1);
    expect(got[0]![1]).toBe('WARN');
    expect(JSON.parse(got[0]![0])).toMatchObject({ level: 'WARN', message: 'w', service: 'svc' });
  });
});

describe('the log level', () => {
  it('is INFO by default and follows POWERTOOLS_LOG_LEVEL, then LOG_LEVEL, in any case', () => {
    expect(logThreshold(quiet)).toBe(logThreshold({ LOG_LEVEL: 'INFO' }));
    expect(logThreshold({ LOG_LEVEL: 'warn' })).toBe(logThreshold({ LOG_LEVEL: 'WARN' }));
    expect(logThreshold({ LOG_LEVEL: 'WARN' })).toBeGreaterThan(logThreshold({ LOG_LEVEL: 'INFO' }));
    expect(logThreshold({ POWERTOOLS_LOG_LEVEL: 'ERROR', LOG_LEVEL: 'DEBUG' })).toBe(logThreshold({ LOG_LEVEL: 'ERROR' }));
    expect(logThreshold({ LOG_LEVEL: 'loud' })).toBe(logThreshold({}));
  });

  it('drops lines below it, and SILENT drops every line', async () => {
    const warn = new JsonLogger('svc', { ...quiet, LOG_LEVEL: 'warn' });
    const silent = new JsonLogger('svc', { ...quiet, LOG_LEVEL: 'SILENT' });
    const out = await captureOutput(async () => {
      warn.debug({ message: 'd' });
      warn.info({ message: 'i' });
      warn.warn({ message: 'w' });
      silent.error({ message: 'e' });
    });
    expect(out.json.map((l) => l.message)).toEqual(['w']);
  });

  it("is never below Lambda's own log-level control", () => {
    expect(logThreshold({ LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'WARN' })).toBe(logThreshold({ LOG_LEVEL: 'WARN' }));
    expect(logThreshold({ AWS_LAMBDA_LOG_LEVEL: 'FATAL' })).toBeGreaterThan(logThreshold({ LOG_LEVEL: 'ERROR' }));
    expect(logThreshold({ LOG_LEVEL: 'ERROR', AWS_LAMBDA_LOG_LEVEL: 'DEBUG' })).toBe(logThreshold({ LOG_LEVEL: 'ERROR' }));
  });
});
