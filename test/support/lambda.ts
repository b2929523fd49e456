// Calling a handler as Lambda does, and reading what it printed: a payload-2.0 event built by the
// local gateway's builder, a fake Lambda context, and stdout/stderr captured line by line.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';

/** A payload-2.0 event for `method path`, routed as API Gateway routes it. */
export function apiEvent(method: string, path: string, headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return toApiGatewayEvent({ method, url: path, headers: { host: '127.0.0.1:3000', ...headers }, requestId: randomUUID() }, matchRoute(method, path));
}

export function fakeContext(awsRequestId: string = randomUUID()): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'test-fn',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test-fn',
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: '/aws/lambda/test-fn',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface Captured {
  stdout: string;
  stderr: string;
  /** Every line of both streams that is a JSON object. */
  json: Record<string, any>[];
}

/** Runs `fn` with stdout and stderr captured (not shown), and returns what was written. */
export async function captureOutput<T>(fn: () => Promise<T>): Promise<{ result: T } & Captured> {
  const chunks = { stdout: [] as string[], stderr: [] as string[] };
  const spies = (['stdout', 'stderr'] as const).map((name) =>
    vi.spyOn(process[name], 'write').mockImplementation(((chunk: string | Uint8Array) => {
      chunks[name].push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write),
  );
  let result: T;
  try {
    result = await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const stdout = chunks.stdout.join('');
  const stderr = chunks.stderr.join('');
  const json = `${stdout}\n${stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { result, stdout, stderr, json };
}
