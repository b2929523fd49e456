// DynamoDB's answer to writes that meet a transaction on an item, for runs against DynamoDB Local,
// which queues such transactions instead: while a TransactWriteItems is out, another one that
// names any of its items is cancelled (`TransactionConflict` on those items, `None` on the rest),
// and a single write of one of them fails with TransactionConflictException. Here a transaction
// holds its items from when it is sent until its answer comes, DynamoDB Local's queue included:
// longer than DynamoDB holds them, so this refuses more than DynamoDB would.
import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type Op = { TableName?: string; Key?: Record<string, unknown>; Item?: Record<string, unknown> };

const itemOf = (op: Op | undefined) => {
  const k = op?.Key ?? op?.Item ?? {};
  return `${op?.TableName}|${String(k.pk)}|${String(k.sk)}`;
};

export interface Refusals {
  /** Whether it refuses (else requests pass untouched). */
  on: boolean;
  /** Transactions cancelled, and single writes refused, so far. */
  transactions: number;
  writes: number;
}

/** Makes `client` refuse as DynamoDB does while `on`; returns the switch and the running count of refusals. */
export function refuseConflicts(client: DynamoDBDocumentClient): Refusals {
  const held = new Set<string>();
  const refusals: Refusals = { on: true, transactions: 0, writes: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!refusals.on) return next(args);
      const input = args.input as { TransactItems?: Record<string, Op>[] } & Op;
      const command = context.commandName;
      if (command === 'TransactWriteItemsCommand') {
        const items = (input.TransactItems ?? []).map((t) => itemOf(t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck));
        if (items.some((i) => held.has(i))) {
          refusals.transactions++;
          throw new TransactionCanceledException({
            message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
            $metadata: {},
            CancellationReasons: items.map((i) => (held.has(i) ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' })),
          });
        }
        for (const i of items) held.add(i);
        try {
          return await next(args);
        } finally {
          for (const i of items) held.delete(i);
        }
      }
      if ((command === 'PutItemCommand' || command === 'UpdateItemCommand' || command === 'DeleteItemCommand') && held.has(itemOf(input))) {
        refusals.writes++;
        throw new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'refuseConflicts' },
  );
  return refusals;
}
