// The local runtime's stand-in for IAM: while a handler runs, every DynamoDB request it sends is
// checked against its operation's `tableActions` (the list the stack turns into the function's
// policy). A request AWS would refuse fails here too, with the AccessDeniedException AWS throws,
// so that a read function that writes shows up in local runs and tests as a 500, as on AWS.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { INDEX_ACTIONS, type ScopedGrant } from '#lib/contract/grants.js';
import type { Operation } from '#lib/contract/operations.js';
import { scopedValue } from '#lib/runtime/scope.js';

interface Policy {
  /** The function's name, for the error message. */
  fn: string;
  allowed: ReadonlySet<string>;
  /** Actions allowed on some partitions only (IAM's dynamodb:LeadingKeys). */
  scoped: readonly ScopedGrant[];
}

const current = scopedValue<Policy>('grants');
const guarded = new WeakSet<DynamoDBDocumentClient>();

/** The partition key value a Query's key condition names (`pk = :v`), if it can be read. */
function queriedPartition(input: Record<string, any>): string | undefined {
  const names: Record<string, string> = input.ExpressionAttributeNames ?? {};
  for (const m of String(input.KeyConditionExpression ?? '').matchAll(/(#?\w+)\s*=\s*(:\w+)/g)) {
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    const value = plain(input.ExpressionAttributeValues?.[m[2]!]);
    if (name === 'pk') return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** A key value as the guard sees it: plain, or already marshalled by the document client (`{S}`). */
const plain = (value: unknown): unknown => (value && typeof value === 'object' && 'S' in value ? (value as { S: unknown }).S : value);

const pkOf = (body: Record<string, any> | undefined): string[] => {
  const pk = plain(body?.Key?.pk ?? body?.Item?.pk);
  return typeof pk === 'string' ? [pk] : [];
};

export interface RequiredAction {
  action: string;
  table?: string;
  index?: string;
  /** The partition keys the request touches (IAM's `dynamodb:LeadingKeys`), when known. */
  pks: string[];
}

/** The DynamoDB action a command needs, per item for transactions; `index` when it addresses one. */
export function requiredActions(command: string, input: Record<string, any>): RequiredAction[] {
  const name = command.replace(/Command$/, '');
  switch (name) {
    case 'TransactWrite':
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((item: Record<string, { TableName?: string }>) => {
        const [kind, body] = Object.entries(item)[0] ?? ['?', {}];
        const action = kind === 'ConditionCheck' ? 'ConditionCheckItem' : `${kind}Item`;
        return { action, table: body?.TableName, pks: pkOf(body) };
      });
    case 'TransactGet':
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((item: { Get?: { TableName?: string } }) => ({ action: 'GetItem', table: item.Get?.TableName, pks: pkOf(item.Get) }));
    case 'BatchGet':
    case 'BatchGetItem':
    case 'BatchWrite':
    case 'BatchWriteItem': {
      const action = name.startsWith('BatchGet') ? 'BatchGetItem' : 'BatchWriteItem';
      return Object.entries(input.RequestItems ?? {}).map(([table, req]: [string, any]) => ({
        action,
        table,
        pks: ((req?.Keys ?? []) as Record<string, any>[]).map((k) => plain(k.pk) as string),
      }));
    }
    case 'Get':
    case 'Put':
    case 'Update':
    case 'Delete':
      return [{ action: `${name}Item`, table: input.TableName, pks: pkOf(input) }];
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ action: name, table: input.TableName, pks: pkOf(input) }];
    default: {
      const pk = name === 'Query' && !input.IndexName ? queriedPartition(input) : undefined;
      return [{ action: name, table: input.TableName, index: input.IndexName, pks: pk === undefined ? [] : [pk] }];
    }
  }
}

function accessDenied(policy: Policy, action: string, resource: string): Error {
  const region = process.env.AWS_REGION || 'us-east-1';
  const err = new Error(
    `User: arn:aws:sts::000000000000:assumed-role/${policy.fn}-role/${policy.fn} is not authorized to perform: dynamodb:${action} ` +
      `on resource: arn:aws:dynamodb:${region}:000000000000:${resource} because no identity-based policy allows the dynamodb:${action} action`,
  );
  return Object.assign(err, { name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
}

/** Checks one request against the running handler's policy; outside a handler everything passes. */
export function checkRequest(command: string, input: Record<string, any>): void {
  const policy = current.get();
  if (!policy) return;
  const table = config().tableName;
  for (const need of requiredActions(command, input)) {
    const resource = need.index ? `table/${need.table}/index/${need.index}` : `table/${need.table}`;
    const granted = policy.allowed.has(need.action) && (!need.index || INDEX_ACTIONS.includes(need.action as never));
    // A scoped grant covers base-table requests whose every partition key has one of its prefixes.
    const scoped =
      !need.index &&
      need.pks.length > 0 &&
      policy.scoped.some((g) => g.actions.includes(need.action as never) && need.pks.every((pk) => g.keyPrefixes.some((p) => pk.startsWith(p))));
    const ok = need.table === table && (granted || scoped);
    if (!ok) throw accessDenied(policy, need.action, resource);
  }
}

function guard(client: DynamoDBDocumentClient): void {
  if (guarded.has(client)) return;
  guarded.add(client);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      checkRequest(String(context.commandName ?? ''), args.input as Record<string, any>);
      return next(args);
    },
    { step: 'initialize', name: 'localIamGuard', priority: 'high' },
  );
}

/**
 * Runs a handler invocation with its operation's table grants (none for the fallback, which is
 * not an operation and gets no table access in the stack either).
 */
export function runWithGrants<T>(op: Operation | undefined, fnName: string, run: () => T): T {
  guard(db());
  return current.run({ fn: fnName, allowed: new Set(op?.tableActions ?? []), scoped: op?.scopedGrants ?? [] }, run);
}
