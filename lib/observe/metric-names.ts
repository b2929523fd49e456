// The names of the custom metrics every function publishes in CloudWatch's embedded metric
// format: the handlers emit them (lib/observe/metrics.ts) and the stack's alarms and dashboard read them
// (infra/monitoring.ts), so both sides name them from here.

export const METRIC_NAMESPACE = 'EventCalendar';

/**
 * The namespace of one deployed stack (`EventCalendar/<stack>`), so that a development stack and
 * production in one account and region neither add up nor set off each other's alarms. The stack
 * hands it to its functions in POWERTOOLS_METRICS_NAMESPACE.
 */
export const stackMetricNamespace = (stackName: string) => `${METRIC_NAMESPACE}/${stackName}`;

/** The one dimension: the operation id of lib/contract/operations.ts (or `root.noRoute`, or `stream.consumer`). */
export const OPERATION_DIMENSION = 'operation';

export const METRICS = {
  /** One per request (Count). */
  requests: 'Requests',
  /** The handler's time per request (Milliseconds). */
  latency: 'Latency',
  /** Answers with a 4xx status (Count). */
  clientErrors: 'Status4xx',
  /** Answers with a 5xx status (Count). */
  serverErrors: 'Status5xx',
  /** DynamoDB read and write capacity units consumed by the request (Count). */
  readUnits: 'ReadUnits',
  writeUnits: 'WriteUnits',
  /** The stream consumer (operation `stream.consumer`), per batch: records it finished, ignored ones included (Count). */
  streamRecords: 'StreamRecords',
  /** Records it reported failed: 0 or 1, the first failure of the batch (Count). */
  streamFailures: 'StreamFailures',
  /** How long after its write the batch's oldest record was handled (Milliseconds). */
  streamLag: 'StreamLag',
  /** The webhook sender (operation `webhooks.sender`), per attempt: delivered (2xx) or not (Count). */
  webhookDelivered: 'WebhookDelivered',
  webhookFailedAttempts: 'WebhookFailedAttempts',
  /** Messages given up on after their last retry (Count). */
  webhookGivenUp: 'WebhookGivenUp',
} as const;
