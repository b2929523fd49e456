// How a benchmark script ends: its exit code (1 when a check failed), or 2 with the reason when it
// could not run (Java missing for DynamoDB Local: its message alone).
import { resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv, type DevKeys } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';

export interface BenchTable {
  keys: DevKeys;
  /** The in-memory DynamoDB Local this run started, when DYNAMODB_ENDPOINT named none. */
  dynamo?: DynamoLocal;
  endpoint: string;
  tableName: string;
}

/**
 * What a benchmark runs against: the development issuer, DYNAMODB_ENDPOINT or a fresh in-memory
 * DynamoDB Local, and a new table named `bench-<name>-…` made from the table definition
 * (`stream: false` for a benchmark that runs no stream consumer: see ensureTable).
 */
export async function benchTable(name: string, opts: { stream?: boolean } = {}): Promise<BenchTable> {
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  process.env.SITE_URL ||= 'http://127.0.0.1:3000';
  let dynamo: DynamoLocal | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    dynamo = await startDynamoLocal();
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  const tableName = `bench-${name}-${Date.now().toString(36)}`;
  process.env.TABLE_NAME = tableName;
  resetConfig();
  await ensureTable(tableName, undefined, opts);
  return { keys, dynamo, endpoint: process.env.DYNAMODB_ENDPOINT, tableName };
}

export function runBench(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err instanceof JavaMissingError ? err.message : (err?.stack ?? String(err)));
      process.exit(2);
    },
  );
}
