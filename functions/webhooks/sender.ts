// The webhook sender (event source mapping on the webhook queue, infra/webhooks.ts): POSTs each
// queued message to its subscriber and reports the ones to retry.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sendBatch } from '#lib/stream/webhook-sender.js';

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => sendBatch(event);
