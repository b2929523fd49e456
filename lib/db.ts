// One DynamoDB document client per process (module scope, reused by warm Lambdas). Every call
// asks for its consumed capacity, which is tallied so that tests and benchmarks can measure cost.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface CapacityTally {
  requests: number;
  read: number;
  write: number;
  /** Request counts by command name, e.g. { QueryCommand: 2, BatchGetCommand: 1 }. */
  commands: Record<string, number>;
}

const tally: CapacityTally = { requests: 0, read: 0, write: 0, commands: {} };

export const capacity = {
  reset(): void {
    tally.requests = 0;
    tally.read = 0;
    tally.write = 0;
    tally.commands = {};
  },
  snapshot(): CapacityTally {
    return { ...tally, commands: { ...tally.commands } };
  },
};

interface Consumed {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

function record(command: string, consumed: Consumed | Consumed[] | undefined) {
  tally.requests += 1;
  tally.commands[command] = (tally.commands[command] ?? 0) + 1;
  for (const c of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
    const read = c.ReadCapacityUnits ?? 0;
    const write = c.WriteCapacityUnits ?? 0;
    // Reads report CapacityUnits only (no split) in some responses.
    if (read || write) {
      tally.read += read;
      tally.write += write;
    } else if (command.startsWith('Get') || command.startsWith('Query') || command.startsWith('BatchGet') || command.startsWith('TransactGet')) {
      tally.read += c.CapacityUnits ?? 0;
    } else {
      tally.write += c.CapacityUnits ?? 0;
    }
  }
}

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
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      record(String(context.commandName ?? 'Command'), (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity);
      return result;
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
