// Bulk writes (lib/store/batch-writes.ts), against DynamoDB Local, committed either way: batches
// with every other write on its own, or transactions of up to 100 items (an import into DynamoDB
// Local). Both must leave the same items, and both leave out a write whose guard fails.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { commitAll, deleteAll, putAll, type BulkAction, type BulkTarget } from '#lib/store/batch-writes.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('bulk');

const partition = async (pk: string) =>
  ((await db().send(new QueryCommand({ TableName: config().tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': pk } }))).Items ?? []).map((i) => ({
    sk: i.sk,
    n: i.n,
  }));

describe.each(['batch', 'transaction'] as const)('commitAll, by %s', (commits) => {
  const target = (): BulkTarget => ({ table: config().tableName, client: db(), commits });
  const pk = `BULK#${commits}`;
  const sk = (i: number) => `s${String(i).padStart(3, '0')}`;

  it('puts and deletes every item, more than one request holds', async () => {
    await putAll(
      Array.from({ length: 230 }, (_, i) => ({ pk, sk: sk(i), n: i })),
      target(),
      4,
    );
    expect(await partition(pk)).toEqual(Array.from({ length: 230 }, (_, i) => ({ sk: sk(i), n: i })));
    capacity.reset();
    await deleteAll(
      Array.from({ length: 200 }, (_, i) => ({ pk, sk: sk(i) })),
      target(),
      4,
    );
    // 200 deletes: 8 batches of 25, or 2 transactions of 100.
    expect(capacity.snapshot().commands).toEqual(commits === 'batch' ? { BatchWriteItemCommand: 8 } : { TransactWriteItemsCommand: 2 });
    expect((await partition(pk)).map((i) => i.n)).toEqual(Array.from({ length: 30 }, (_, i) => 200 + i));
  });

  it('updates, and leaves out only the writes whose guard fails', async () => {
    const key = (i: number) => ({ pk: `${pk}#g`, sk: sk(i) });
    await putAll(
      [0, 1, 2, 3].map((i) => ({ ...key(i), n: i })),
      target(),
      1,
    );
    const actions: BulkAction[] = [
      { Update: { Key: key(0), UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 10 } } },
      // Guard holds: deleted.
      { Delete: { Key: key(1), ConditionExpression: '#n <= :v', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':v': 1 } } },
      // Guard fails: kept, and the transaction's other writes still happen.
      { Delete: { Key: key(2), ConditionExpression: '#n <= :v', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':v': 1 } } },
      { Put: { Item: { ...key(4), n: 4 } } },
    ];
    await commitAll(actions, target(), 2);
    expect(await partition(`${pk}#g`)).toEqual([
      { sk: sk(0), n: 10 },
      { sk: sk(2), n: 2 },
      { sk: sk(3), n: 3 },
      { sk: sk(4), n: 4 },
    ]);
  });

  it('takes a key written twice (a transaction may name an item once)', async () => {
    const key = { pk: `${pk}#twice`, sk: 'one' };
    await commitAll(
      [
        { Put: { Item: { ...key, n: 1 } } },
        { Update: { Key: key, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 1 } } },
      ],
      target(),
      1,
    );
    expect((await partition(key.pk)).length).toBe(1);
    // Two puts of one key: the last stands.
    await putAll(
      [
        { ...key, n: 5 },
        { ...key, n: 6 },
      ],
      target(),
      1,
    );
    expect(await partition(key.pk)).toEqual([{ sk: 'one', n: 6 }]);
  });
});
