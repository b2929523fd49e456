// A table an older version left in .local/dynamodb (terms listed by gsi2, no gsi3, the longest
// duration under its former key) is brought up to the table definition by ensureTable.
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureTable, localClient } from '#lib/local/dynamo.js';
import { invoke } from '#lib/local/invoke.js';
import { upgradeTable } from '#lib/local/upgrade.js';
import { waitForActive } from '#lib/local/dynamo.js';
import { keys } from '#lib/store/keys.js';
import { itemBytes } from '#lib/store/stats.js';
import { createTableInput } from '#lib/store/table.js';
import { dynamoEndpoint, uniqueTableName } from '../support/table.js';

const name = uniqueTableName('upgrade');
const previous = process.env.TABLE_NAME;

afterAll(async () => {
  const client = localClient(await dynamoEndpoint());
  await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
  client.destroy();
  if (previous === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = previous;
  resetConfig();
});

describe('upgrading a table from an older version', () => {
  it('adds the terms index, moves terms and the longest duration, and then does nothing', async () => {
    const endpoint = await dynamoEndpoint();
    const client = localClient(endpoint);
    const doc = DynamoDBDocumentClient.from(client);
    const old = createTableInput(name);
    old.GlobalSecondaryIndexes = old.GlobalSecondaryIndexes!.filter((i) => i.IndexName !== 'gsi3');
    old.AttributeDefinitions = old.AttributeDefinitions!.filter((a) => !a.AttributeName!.startsWith('gsi3'));
    await client.send(new CreateTableCommand(old));
    await waitForActive(client, name);
    const term = {
      ...keys.term(7),
      id: 7,
      taxonomy: 'category',
      lang: 'en',
      name: 'Jazz',
      slug: 'jazz',
      description: '',
      parent: 0,
      count: 0,
      version: 1,
      gsi1pk: 'category#en#jazz',
      gsi2pk: 'LIST#category#en',
      gsi2sk: 'jazz#0000000007',
    };
    await doc.send(new PutCommand({ TableName: name, Item: term }));
    await doc.send(new PutCommand({ TableName: name, Item: { pk: 'STATS#duration', sk: 'en', seconds: 7200 } }));

    expect(await ensureTable(name, endpoint)).toBe(false);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(Table!.GlobalSecondaryIndexes!.map((i) => i.IndexName).sort()).toEqual(['gsi1', 'gsi2', 'gsi3']);
    const moved = (await doc.send(new GetCommand({ TableName: name, Key: keys.term(7) }))).Item!;
    expect(moved).toMatchObject({ gsi3pk: 'TERMS#en', gsi3sk: 'category#jazz#0000000007', gsi1pk: 'category#en#jazz' });
    expect(moved).not.toHaveProperty('gsi2pk');
    const stats = (await doc.send(new GetCommand({ TableName: name, Key: keys.langStats('en') }))).Item!;
    expect(stats).toMatchObject({ seconds: 7200, termBytes: itemBytes(moved) });
    expect((await doc.send(new GetCommand({ TableName: name, Key: { pk: 'STATS#duration', sk: 'en' } }))).Item).toBeUndefined();

    // The API lists the moved term.
    process.env.TABLE_NAME = name;
    resetConfig();
    const list = await invoke('GET', 'en', '/categories', { query: { hide_empty: 'false' } });
    expect(list.body.categories.map((c: { name: string }) => c.name)).toEqual(['Jazz']);

    // Current tables are left alone.
    expect(await upgradeTable(client, name, waitForActive)).toEqual({ indexes: [], terms: 0 });
    client.destroy();
  });
});
