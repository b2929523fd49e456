// One DynamoDB document client per process (module scope, reused by warm Lambdas). Every call
// asks for its consumed capacity, which is tallied (lib/observe/capacity.ts) so that tests and benchmarks
// can measure cost and each request can log what it consumed; a request past its budget
// (lib/contract/budget.ts) is refused before it is sent.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

let client: DynamoDBDocumentClient | undefined;
let clientEndpoint: string | undefined;
/** The shared client; rebuilt only if DYNAMODB_ENDPOINT changes (tests and the local runtime). */
export function db(): DynamoDBDocumentClient {
  const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;
  if (!client || endpoint !== clientEndpoint) {
    client = makeClient();
    clientEndpoint = endpoint;
  }
  return client;
}

// Made at module scope, as Lambda's init phase is meant for: a function's first request then
// finds the client ready, and so do environments Lambda initializes ahead of their first request.
db();
