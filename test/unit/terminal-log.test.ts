// The local runtime's rendering of the handlers' log lines (lib/local/terminal-log.ts).
import { describe, expect, it, vi } from 'vitest';
import { handler as indexHandler } from '../../functions/root/index.js';
import { logFormat, renderRequest, terminalLogWriter } from '#lib/local/terminal-log.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { handle } from '#lib/http/pipeline.js';
import { apiEvent, captureOutput, fakeContext } from '../support/lambda.js';

vi.hoisted(() => {
  for (const name of ['LOG_LEVEL', 'POWERTOOLS_LOG_LEVEL', 'AWS_LAMBDA_LOG_LEVEL', 'POWERTOOLS_DEV']) delete process.env[name];
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
});

const REQUEST = {
  level: 'INFO',
  message: 'request',
  timestamp: '2025-03-04T12:03:04.000Z',
  service: 'event-calendar-api',
  operation: 'events.list',
  request_id: 'r-1',
  correlation_id: 'r-1',
  method: 'GET',
  path: '/en/tribe/events/v1/events',
  status: 200,
  duration_ms: 12.5,
  role: 'editor',
  dynamodb: { requests: 2, read_units: 1.5, write_units: 0 },
};
const ERROR = {
  level: 'ERROR',
  message: 'Unhandled error',
  timestamp: '2025-03-04T12:03:04.000Z',
  operation: 'events.get',
  correlation_id: 'c-9',
  error: { name: 'Error', message: 'kaput', stack: 'Error: kaput\n    at somewhere (file.ts:1:1)' },
};

function sinks() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, opts: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

describe('terminal rendering', () => {
  it('shows a request as one line: status, method and path, duration, operation, role and units', () => {
    const line = renderRequest(REQUEST);
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^\d\d:\d\d:\d\d 200 GET \/en\/tribe\/events\/v1\/events 12\.5ms events\.list editor 2 calls 1\.5 RCU 0 WCU$/);
    expect(renderRequest({ ...REQUEST, correlation_id: 'client-7' })).toMatch(/ id=client-7$/);
    expect(renderRequest(REQUEST, true)).toContain('\x1b[32m200\x1b[0m');
    expect(renderRequest({ ...REQUEST, status: 503 }, true)).toContain('\x1b[31m503\x1b[0m');
  });

  it('pretty: request lines to out, errors with their stack to err', () => {
    const s = sinks();
    let seen = 0;
    const write = terminalLogWriter({ format: 'pretty', ...s.opts }, () => seen++);
    write(JSON.stringify(REQUEST), 'INFO');
    write(JSON.stringify(ERROR), 'ERROR');
    expect(seen).toBe(1);
    expect(s.out).toEqual([renderRequest(REQUEST)]);
    expect(s.err).toHaveLength(1);
    expect(s.err[0]).toMatch(/ERROR events\.get Unhandled error id=c-9\nError: kaput\n {4}at somewhere/);
  });

  it('json: the lines exactly as Lambda prints them', () => {
    const s = sinks();
    const write = terminalLogWriter({ format: 'json', ...s.opts });
    write(JSON.stringify(REQUEST), 'INFO');
    write(JSON.stringify(ERROR), 'ERROR');
    expect(s.out).toEqual([JSON.stringify(REQUEST)]);
    expect(s.err).toEqual([JSON.stringify(ERROR)]);
  });

  it('quiet: no request lines, errors still shown; the request line is still noticed', () => {
    const s = sinks();
    let seen = 0;
    const write = terminalLogWriter({ format: 'pretty', quiet: true, ...s.opts }, () => seen++);
    write(JSON.stringify(REQUEST), 'INFO');
    write(JSON.stringify(ERROR), 'ERROR');
    expect(seen).toBe(1);
    expect(s.out).toEqual([]);
    expect(s.err).toHaveLength(1);
  });

  it('picks JSON unless stdout is a terminal, or as LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it("renders a real handler's line, and nothing reaches stdout", async () => {
    const s = sinks();
    const event = apiEvent('GET', '/en/tribe/events/v1');
    const captured = await captureOutput(() => withLogWriter(terminalLogWriter({ format: 'pretty', ...s.opts }), () => indexHandler(event, fakeContext())));
    expect(captured.stdout).toBe('');
    expect(s.out).toHaveLength(1);
    expect(s.out[0]).toMatch(/ 200 GET \/en\/tribe\/events\/v1 [\d.]+ms root\.index anonymous 0 calls 0 RCU 0 WCU$/);

    const failing = handle('root.index', async () => {
      throw new Error('kaput locally');
    });
    const s2 = sinks();
    await captureOutput(() => withLogWriter(terminalLogWriter({ format: 'json', ...s2.opts }), () => failing(apiEvent('GET', '/en/tribe/events/v1'), fakeContext())));
    expect(s2.err).toHaveLength(1);
    expect(JSON.parse(s2.err[0]!)).toMatchObject({ level: 'ERROR', operation: 'root.index', error: { message: 'kaput locally' } });
    expect(JSON.parse(s2.out[0]!)).toMatchObject({ message: 'request', status: 500 });
  });
});
