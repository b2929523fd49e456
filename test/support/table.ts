// A fresh DynamoDB table per test file, created from the table definition.
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DescribeTableCommand, type TableDescription } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureTable, localClient, startTimeoutMs, waitForDynamo } from '#lib/local/dynamo.js';

let reachable: Promise<string> | undefined;
/** The DynamoDB Local the file leased for its table with a stream (useFreshTable). */
let leased: string | undefined;

/** Asks the run's pool of DynamoDB Locals for tables with a stream (test/setup/stream-instances.ts). */
async function pool(action: 'lease' | 'release', body?: unknown): Promise<Response> {
  const res = await fetch(`${inject('dynamodbStreamPool')}/${action}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
  if (!res.ok) throw new Error(`The DynamoDB Local pool refused to ${action}: ${res.status} ${await res.text()}`);
  return res;
}

/** The test DynamoDB endpoint, once it answers (DynamoDB Local may still be starting). */
export function dynamoEndpoint(): Promise<string> {
  if (leased) return Promise.resolve(leased);
  return (reachable ??= (async () => {
    const endpoint = process.env.DYNAMODB_ENDPOINT || inject('dynamodbEndpoint');
    if (!endpoint) throw new Error(inject('dynamodbError') || 'No DynamoDB for the tests: DYNAMODB_ENDPOINT is not set.');
    await waitForDynamo(endpoint);
    return endpoint;
  })());
}

/** A table as DynamoDB Local describes it now. */
export async function tableDescription(name: string): Promise<TableDescription> {
  const client = localClient(await dynamoEndpoint());
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table!;
  } finally {
    client.destroy();
  }
}

/** A table name no other file or run uses: `<prefix>-<time>-<random>`. */
export function uniqueTableName(prefix = 'test'): string {
  const clean = prefix.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 100) || 'test';
  return `${clean}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * For a test file: creates a uniquely named table in beforeAll (sets TABLE_NAME and resets the
 * configuration) and deletes it in afterAll. Returns the table's name.
 *
 * The table has its stream only with `stream: true`, for files that run the stream consumer, and
 * then it lives in a DynamoDB Local leased from the run's pool, which serves a few such files
 * each (DYNAMODB_ENDPOINT points there until the file ends). DynamoDB Local keeps every stream
 * record it was given, deleted tables' too, and each request to a table with a stream reads over
 * them: measured, a put and a get on a fresh table with a stream took 442 ms after two thirds of
 * a full run (22 ms on one without), so one shared instance slowed every later file that runs the
 * consumer, and the run past its time. Handlers never read the stream, so without a consumer it
 * changes nothing they do.
 */
export function useFreshTable(prefix = 'test', opts: { stream?: boolean } = {}): string {
  const name = uniqueTableName(prefix);
  let previous: string | undefined;
  let previousEndpoint: string | undefined;
  // The first file of a worker may wait for DynamoDB Local to start, then creates its table.
  beforeAll(async () => {
    if (opts.stream && !leased && inject('dynamodbStreamPool')) {
      leased = ((await (await pool('lease')).json()) as { endpoint: string }).endpoint;
      previousEndpoint = process.env.DYNAMODB_ENDPOINT;
      process.env.DYNAMODB_ENDPOINT = leased;
    }
    const endpoint = await dynamoEndpoint();
    await ensureTable(name, endpoint, { stream: opts.stream ?? false });
    previous = process.env.TABLE_NAME;
    process.env.TABLE_NAME = name;
    resetConfig();
  }, startTimeoutMs() + 60_000);
  afterAll(async () => {
    if (process.env.TABLE_NAME === name) {
      if (previous === undefined) delete process.env.TABLE_NAME;
      else process.env.TABLE_NAME = previous;
      resetConfig();
    }
    const endpoint = await dynamoEndpoint().catch(() => undefined);
    if (!endpoint) return;
    const client = localClient(endpoint);
    try {
      await client.send(new DeleteTableCommand({ TableName: name }));
    } catch {
      // never created, or already gone
    } finally {
      client.destroy();
    }
    if (opts.stream && leased) {
      // The pool stops the instance once every file it served is done.
      await pool('release', { endpoint: leased });
      leased = undefined;
      if (previousEndpoint === undefined) delete process.env.DYNAMODB_ENDPOINT;
      else process.env.DYNAMODB_ENDPOINT = previousEndpoint;
    }
  });
  return name;
}
