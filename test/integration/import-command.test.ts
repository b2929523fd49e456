// `npm run import -- --wxr` end to end, as a site owner runs it, into a table it makes: with its
// change stream, which holds every write of the import for the consumer of `npm start` (the
// change log, series without an end, webhooks), and with the search index built.
import { execFile } from 'node:child_process';
import { DeleteTableCommand, DescribeTableCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, describe, expect, it } from 'vitest';
import { localClient } from '#lib/local/dynamo.js';
import { dynamoEndpoint, uniqueTableName } from '../support/table.js';

const table = uniqueTableName('import-command');

const importer = async (args: string[]) => {
  const env = { ...process.env, DYNAMODB_ENDPOINT: await dynamoEndpoint(), TABLE_NAME: table, NO_COLOR: '1' };
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('node_modules/.bin/tsx', ['scripts/import.ts', ...args], { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
};

const described = async () => {
  const client = localClient(await dynamoEndpoint());
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    // The words the search index holds for the export's private event in Kathmandu (post 205).
    const words = await client.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'WORD#205' } } }));
    return { stream: Table?.StreamSpecification, arn: Table?.LatestStreamArn, words: (words.Items ?? []).map((i) => i.sk?.S) };
  } finally {
    client.destroy();
  }
};

/** The records the table's stream holds, from its start. */
const streamRecords = async (arn: string) => {
  const streams = new DynamoDBStreamsClient({ endpoint: await dynamoEndpoint(), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    let n = 0;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }));
      n += (await streams.send(new GetRecordsCommand({ ShardIterator }))).Records?.length ?? 0;
    }
    return n;
  } finally {
    streams.destroy();
  }
};

afterAll(async () => {
  const client = localClient(await dynamoEndpoint());
  await client.send(new DeleteTableCommand({ TableName: table })).catch(() => undefined);
  client.destroy();
});

describe('npm run import -- --wxr, into a table it makes', () => {
  const file = ['--wxr', 'test/fixtures/wxr/tec-export.xml', '--timezone', 'Europe/Vilnius'];

  it('imports, with the change stream, and builds the search index', async () => {
    const out = await importer(file);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^events\s+4 created, 0 updated, 0 unchanged, 0 failed/m);
    const after = await described();
    expect(after.stream).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(after.words).toEqual(expect.arrayContaining(['private', 'kathmandu']));
    // Every write of the import is in it: the events', among them.
    expect(await streamRecords(after.arn!)).toBeGreaterThan(4);
  }, 150_000);

  it('runs again with the stream it has', async () => {
    const { arn } = await described();
    const out = await importer(file);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^events\s+0 created, 0 updated, 4 unchanged, 0 failed/m);
    expect(await described()).toMatchObject({ arn, stream: { StreamEnabled: true } });
  }, 150_000);
});
