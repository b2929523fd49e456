// Webhook delivery on AWS: the stream consumer enqueues one message per change and subscription
// (lib/stream/webhook-trigger.ts) on an SQS FIFO queue, one message group per subscription and
// record (a record's messages in order; everything else side by side); the sender
// (WEBHOOK_SENDER, lib/stream/functions.ts) is fed by an event source mapping with partial batch
// responses. Its growing waits are ChangeMessageVisibility calls on the message it failed to
// deliver (lib/stream/webhook-sender.ts); after about three days it gives the message up itself,
// keeping it in the table. The dead-letter queue receives only what the sender could not handle
// at all (a crash, a timeout) MAX_RECEIVE_COUNT times.
import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WEBHOOK_SENDER } from '#lib/stream/functions.js';
import { MAX_RECEIVE_COUNT } from '#lib/stream/webhook-queue.js';
import { ApiFunction } from './api-function.js';

/**
 * The queue's visibility timeout: what a receive hides a message for unless the sender sets its
 * wait. Longer than the sender's timeout, as SQS requires of an event source.
 */
export const WEBHOOK_VISIBILITY_TIMEOUT = Duration.seconds(WEBHOOK_SENDER.timeoutSeconds * 2);
/** SQS's longest: the retries' three days fit well within it. */
export const WEBHOOK_RETENTION = Duration.days(14);

export interface WebhookDeliveryProps {
  table: dynamodb.TableV2;
  /** The functions' shared settings (table name, metric namespace, site). */
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** The stream consumer, which enqueues. */
  producer: ApiFunction;
}

export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly sender: ApiFunction;
  readonly source: SqsEventSource;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      fifo: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: WEBHOOK_RETENTION,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the webhook queue's dead-letter queue itself: it keeps the messages the sender could not handle at all, for operators.",
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      fifo: true,
      // The trigger names each message's deduplication id (its webhook-id).
      contentBasedDeduplication: false,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: WEBHOOK_RETENTION,
      visibilityTimeout: WEBHOOK_VISIBILITY_TIMEOUT,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });

    this.sender = new ApiFunction(this, {
      operationId: WEBHOOK_SENDER.id,
      handler: WEBHOOK_SENDER.handler,
      description: `${WEBHOOK_SENDER.id}: ${WEBHOOK_SENDER.summary}`,
      environment: { ...props.environment, WEBHOOK_QUEUE_URL: this.queue.queueUrl },
      logRetention: props.logRetention,
      timeoutSeconds: WEBHOOK_SENDER.timeoutSeconds,
    });
    this.sender.allowTable(props.table.tableArn, WEBHOOK_SENDER.tableActions, WEBHOOK_SENDER.scopedGrants);

    this.source = new SqsEventSource(this.queue, {
      // One message per invocation: a receiver's 10 seconds hold up only its own message group.
      batchSize: 1,
      reportBatchItemFailures: true,
    });
    // Its grants: receiving and deleting, and ChangeMessageVisibility (the sender's growing waits).
    this.sender.function.addEventSource(this.source);

    this.queue.grantSendMessages(props.producer.role);
    props.producer.function.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
  }
}
