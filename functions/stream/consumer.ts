// The table stream's consumer (event source mapping in infra/stream.ts): runs every trigger of
// lib/stream/triggers.ts on each change and reports the first failed record.
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { consume } from '#lib/stream/consume.js';

export const handler = (event: DynamoDBStreamEvent, context: Context | undefined): Promise<DynamoDBBatchResponse> => consume(event, { functionRequestId: context?.awsRequestId });
