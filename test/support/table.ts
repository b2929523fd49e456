// A fresh DynamoDB table per test file, created from the table definition.
import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, inject } from 'vitest';
import { resetConfig } from '../../lib/config.js';
import { localClient, waitForActive, waitForDynamo } from '../../lib/local/dynamo.js';
import { createTableInput } from '../../lib/table.js';

let reachable: Promise<string> | undefined;

/** The test DynamoDB endpoint, once it answers (DynamoDB Local may still be starting). */
export function dynamoEndpoint(): Promise<string> {
  return (reachable ??= (async () => {
    const endpoint = process.env.DYNAMODB_ENDPOINT || inject('dynamodbEndpoint');
    if (!endpoint) throw new Error(inject('dynamodbError') || 'No DynamoDB for the tests: DYNAMODB_ENDPOINT is not set.');
    await waitForDynamo(endpoint, { timeoutMs: 45_000 });
    return endpoint;
  })());
}

/** A table name no other file or run uses: `<prefix>-<time>-<random>`. */
export function uniqueTableName(prefix = 'test'): string {
  const clean = prefix.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 100) || 'test';
  return `${clean}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * For a test file: creates a uniquely named table in beforeAll (sets TABLE_NAME and resets the
 * configuration) and deletes it in afterAll. Returns the table's name.
 */
export function useFreshTable(prefix = 'test'): string {
  const name = uniqueTableName(prefix);
  let previous: string | undefined;
  beforeAll(async () => {
    const endpoint = await dynamoEndpoint();
    const client = localClient(endpoint);
    try {
      await client.send(new CreateTableCommand(createTableInput(name)));
      await waitForActive(client, name);
    } finally {
      client.destroy();
    }
    previous = process.env.TABLE_NAME;
    process.env.TABLE_NAME = name;
    resetConfig();
  });
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
  });
  return name;
}
