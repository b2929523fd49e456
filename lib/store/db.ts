// One DynamoDB client per process (module scope, reused by warm Lambdas), used as a document client
// and, for the hot reads, as a plain client whose middleware is resolved once per command type. Every call
// asks for its consumed capacity, which is tallied (lib/observe/capacity.ts) so that tests and benchmarks
// can measure cost and each request can log what it consumed; a request past its budget
// (lib/contract/budget.ts) is refused before it is sent.
import { type $Command, DynamoDBClient, type DynamoDBClientResolvedConfig, type ServiceInputTypes, type ServiceOutputTypes } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { admit, recordConsumed, startRequest, type Consumed } from '#lib/observe/capacity.js';
import { logger } from '#lib/observe/log.js';
import { overBudget, REQUEST_BUDGET } from '#lib/contract/budget.js';
import { requestWork } from '#lib/runtime/scope.js';

export { capacity, type CapacityTally } from '#lib/observe/capacity.js';

function makeClient(): DynamoDBDocumentClient {
  const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;
  const base = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    // DynamoDB Local accepts any credentials; on AWS the Lambda role's are used.
    ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const client = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  // The SDK's logger middleware filters every input and output for its log line even when the
  // logger discards it: a tenth of a list page's CPU time. Requests are logged by lib/observe/log.ts.
  client.middlewareStack.remove('loggerMiddleware');
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? 'Command');
      // A request over its budget is refused before it is sent (lib/contract/budget.ts).
      const refused = admit(command, REQUEST_BUDGET);
      if (refused) {
        if (refused.first) logger.warn({ message: 'A request went over its DynamoDB budget: refused', command, limit: refused.limit, budget: REQUEST_BUDGET });
        throw overBudget(refused.limit);
      }
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const request = startRequest();
      try {
        // Registered: a request that ends while it is still out left it running (lib/runtime/scope.ts).
        const result = await requestWork(next(args));
        recordConsumed(command, (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity);
        return result;
      } finally {
        request.finish();
      }
    },
    { step: 'initialize', name: 'consumedCapacityTally' },
  );
  return client;
}

type PlainCommand<I extends ServiceInputTypes, O extends ServiceOutputTypes> = $Command<I, O, DynamoDBClientResolvedConfig, ServiceInputTypes, ServiceOutputTypes>;
type Resolved = (command: unknown) => Promise<{ output: unknown }>;
/** Sends a plain command (its values marshalled by the caller) and answers its output. */
export type PlainSender = <I extends ServiceInputTypes, O extends ServiceOutputTypes>(command: PlainCommand<I, O>) => Promise<O>;

/**
 * Sends the plain client's commands over `client` and its middleware, resolved once per command
 * type: the SDK resolves every middleware of the stack for every request otherwise, a twentieth of
 * a read's CPU time. The resolved handlers are dropped whenever the stack changes, so that
 * middleware added later (the local runtime's grants, a test's) applies to the next request, as
 * it does on the document client.
 */
export function plainSender(client: DynamoDBDocumentClient): PlainSender {
  const resolved = new Map<unknown, Resolved>();
  const stack = client.middlewareStack as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['add', 'addRelativeTo', 'use', 'remove', 'removeByTag']) {
    const change = stack[name]!;
    stack[name] = (...args: unknown[]) => {
      resolved.clear();
      return change.apply(stack, args);
    };
  }
  return async (command) => {
    let handler = resolved.get(command.constructor);
    if (!handler) {
      handler = command.resolveMiddleware(client.middlewareStack, client.config, undefined) as unknown as Resolved;
      resolved.set(command.constructor, handler);
    }
    return (await handler(command)).output as never;
  };
}

let clients: { doc: DynamoDBDocumentClient; send: PlainSender } | undefined;
let clientEndpoint: string | undefined;
function shared(): NonNullable<typeof clients> {
  const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;
  if (!clients || endpoint !== clientEndpoint) {
    const doc = makeClient();
    clients = { doc, send: plainSender(doc) };
    clientEndpoint = endpoint;
  }
  return clients;
}

/** The shared document client; rebuilt only if DYNAMODB_ENDPOINT changes (tests and the local runtime). */
export const db = (): DynamoDBDocumentClient => shared().doc;

/** Sends a plain command over the shared client (lib/store/reads.ts marshals its values). */
export const sendPlain: PlainSender = (command) => shared().send(command);

// Made at module scope, as Lambda's init phase is meant for: a function's first request then
// finds the client ready, and so do environments Lambda initializes ahead of their first request.
shared();
