// The table stream's one durable consumer: a function (STREAM_CONSUMER, lib/stream/functions.ts)
// fed by an event source mapping on the table's stream, which reports partial batch failures,
// retries and bisects a failing batch, and sends what keeps failing to an SQS dead-letter queue;
// and the EventBridge bus its change feed publishes to.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_FILTER_PATTERN } from '#lib/stream/decode.js';
import { STREAM_BATCH_SIZE, STREAM_CONSUMER } from '#lib/stream/functions.js';
import { ApiFunction } from './api-function.js';

/** Retries of a failing batch (halved each time, down to the one bad record) before it is dead-lettered. */
export const STREAM_RETRY_ATTEMPTS = 10;
/**
 * Records older than this are dead-lettered instead of retried: well within the stream's 24 hours,
 * so that a dead-lettered batch can still be read from the stream and replayed for most of a day.
 */
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);

export interface ChangeStreamProps {
  table: dynamodb.TableV2;
  /** The functions' shared settings (table name, metric namespace, site). */
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export class ChangeStream extends Construct {
  readonly bus: events.EventBus;
  readonly consumer: ApiFunction;
  readonly deadLetterQueue: sqs.Queue;
  readonly source: DynamoEventSource;

  constructor(scope: Construct, id: string, props: ChangeStreamProps) {
    super(scope, id);

    this.bus = new events.EventBus(this, 'ChangeBus', {
      eventBusName: `${Stack.of(this).stackName}-changes`,
      description: 'Committed changes of events, venues, organizers, categories and tags (lib/stream/feed-trigger.ts)',
    });

    // What the mapping gives up on: the message names the shard and the sequence numbers, and
    // the records stay readable in the stream for 24 hours from their write.
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is the stream consumer's on-failure destination (a dead-letter queue itself): it receives " +
        'the descriptions of stream batches that exhausted their retries, which operators inspect and replay by hand.',
    });

    this.consumer = new ApiFunction(this, {
      operationId: STREAM_CONSUMER.id,
      handler: STREAM_CONSUMER.handler,
      description: `${STREAM_CONSUMER.id}: ${STREAM_CONSUMER.summary}`,
      environment: { ...props.environment, CHANGE_BUS_NAME: this.bus.eventBusName },
      logRetention: props.logRetention,
      timeoutSeconds: STREAM_CONSUMER.timeoutSeconds,
    });
    this.consumer.allowTable(props.table.tableArn, STREAM_CONSUMER.tableActions, STREAM_CONSUMER.scopedGrants);
    this.bus.grantPutEventsTo(this.consumer.role);

    this.source = new DynamoEventSource(props.table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: STREAM_BATCH_SIZE,
      // Only records' writes wake the consumer (not guards, counters, links or its own markers).
      filters: [lambda.FilterCriteria.filter(STREAM_FILTER_PATTERN)],
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      retryAttempts: STREAM_RETRY_ATTEMPTS,
      maxRecordAge: STREAM_MAX_RECORD_AGE,
      // One batch per shard at a time: an item's changes are applied in the order they were made.
      parallelizationFactor: 1,
      onFailure: new SqsDlq(this.deadLetterQueue),
    });
    // Its grants: the stream reads on the stream ARN, and sending to the queue.
    this.consumer.function.addEventSource(this.source);
  }
}
