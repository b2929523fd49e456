// Alarms and a dashboard for every function of the stack, from the same operation table: the
// handlers' EMF metrics (lib/observe/metric-names.ts) per operation, Lambda's own errors and throttles per
// function, the table's throttling and system errors, and the stream consumer's failures, lag and
// dead letters. Every alarm notifies one SNS topic.
//
// It is a nested stack: four alarms per function would take the stack past CloudFormation's
// 500 resources, while here they count as one resource of the parent.
import { Aws, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { WRITE_ACTIONS } from '#lib/contract/grants.js';
import { METRICS, OPERATION_DIMENSION, stackMetricNamespace } from '#lib/observe/metric-names.js';
import { FALLBACK_HANDLER, OPERATIONS } from '#lib/contract/operations.js';
import { STREAM_CONSUMER } from '#lib/stream/functions.js';
import { INDEXES } from '#lib/store/table.js';
import { moduleId, type ApiFunction } from './api-function.js';
import type { StackSettings } from './settings.js';
import type { ChangeStream } from './stream.js';

export interface MonitoringProps {
  /** The function of every operation, by operation id. */
  functions: ReadonlyMap<string, ApiFunction>;
  /** The `$default` route's function (`root.noRoute`). */
  fallback: ApiFunction;
  table: dynamodb.TableV2;
  /** The table stream's consumer and its dead-letter queue. */
  stream: ChangeStream;
  settings: StackSettings;
}

/**
 * The stream consumer's iterator age (how old the newest record it handled was) that alarms:
 * normally below a second, so five minutes means it is stuck on failures, throttled or down.
 */
export const ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

/**
 * The DynamoDB API operations the functions call, for `SystemErrors` (reported per operation):
 * IAM's ConditionCheckItem only happens inside TransactWriteItems.
 */
export const TABLE_OPERATIONS = [...new Set(WRITE_ACTIONS.map((a) => (a === 'ConditionCheckItem' ? 'TransactWriteItems' : a)))];

/** CloudWatch's limit on the metrics of one alarm's math expression. */
const MAX_ALARM_METRICS = 10;

export class Monitoring extends NestedStack {
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly prefix: string;
  /** The handlers' metric namespace in this stack (lib/observe/metric-names.ts). */
  private readonly namespace: string;
  private readonly period: Duration;
  private readonly settings: StackSettings;
  private readonly action: SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: 'Alarms and dashboard of the Event Calendar API' });
    this.settings = props.settings;
    const m = props.settings.monitoring;
    // The parent's name (a literal): this stack's own name is generated.
    this.prefix = Stack.of(scope).stackName;
    this.namespace = stackMetricNamespace(this.prefix);
    this.period = Duration.minutes(m.periodMinutes);

    // No server-side encryption: CloudWatch cannot publish to a topic under the AWS managed key
    // (its key policy cannot let CloudWatch use it), and alarm messages carry names and numbers,
    // no records. Publishing is allowed over TLS only.
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${this.prefix} alarms`, enforceSSL: true });
    // The topic policy replaces SNS's default one, which let this account's alarms publish.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowThisAccountsAlarms',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
        },
      }),
    );
    if (m.alarmEmail) this.topic.addSubscription(new EmailSubscription(m.alarmEmail));
    this.action = new SnsAction(this.topic);

    const functions: [string, ApiFunction][] = [...props.functions, [moduleId(FALLBACK_HANDLER), props.fallback]];
    const fanOut = new Set(OPERATIONS.filter((op) => op.fansOut).map((op) => op.id));
    const rows: cloudwatch.IWidget[][] = [];
    for (const [operation, fn] of functions) {
      const latencyMs = fanOut.has(operation) ? m.fanOutLatencyMs : m.latencyMs;
      this.functionAlarms(operation, fn, latencyMs);
      rows.push(this.functionWidgets(operation, fn, latencyMs));
    }
    const table = this.tableMetrics(props.table);
    this.tableAlarms(table);
    const stream = this.streamMetrics(props.stream);
    this.streamAlarms(stream);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Dashboard names are per account, not per region.
      dashboardName: `${this.prefix}-${Aws.REGION}`,
      widgets: [
        [
          new cloudwatch.TextWidget({
            width: 24,
            height: 2,
            markdown:
              `### ${this.prefix}\n` +
              `Per operation: the handlers' metrics (namespace \`${this.namespace}\`, dimension \`${OPERATION_DIMENSION}\`) ` +
              "and the function's Lambda metrics. Alarms are named after the stack and notify the topic of the stack output `AlarmTopicArn`.",
          }),
        ],
        this.overviewWidgets(functions, table),
        this.streamWidgets(stream),
        ...rows,
      ],
    });
  }

  private emf(operation: string, metricName: string, statistic: string, label: string): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: this.namespace,
      metricName,
      dimensionsMap: { [OPERATION_DIMENSION]: operation },
      statistic,
      period: this.period,
      label,
    });
  }

  private serverErrorRate(operation: string): cloudwatch.MathExpression {
    return new cloudwatch.MathExpression({
      // A period without 5xx answers may lack the metric; one without requests stays empty (not breaching).
      expression: '100 * FILL(errors, 0) / requests',
      usingMetrics: {
        errors: this.emf(operation, METRICS.serverErrors, 'Sum', '5xx'),
        requests: this.emf(operation, METRICS.requests, 'Sum', 'requests'),
      },
      period: this.period,
      label: '5xx % of requests',
    });
  }

  private alarm(id: string, name: string, description: string, metric: cloudwatch.IMetric, threshold: number, comparison: cloudwatch.ComparisonOperator): void {
    const m = this.settings.monitoring;
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: `${this.prefix}-${name}`,
      alarmDescription: `${description} (${m.datapointsToAlarm} of ${m.evaluationPeriods} periods of ${m.periodMinutes} min)`,
      metric,
      threshold,
      comparisonOperator: comparison,
      evaluationPeriods: m.evaluationPeriods,
      datapointsToAlarm: m.datapointsToAlarm,
      // Custom and AWS/Lambda metrics exist only while requests come: quiet is healthy.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    // Recovery is news too: the e-mail that follows an alarm says it is over.
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
  }

  private functionAlarms(operation: string, fn: ApiFunction, latencyMs: number): void {
    const m = this.settings.monitoring;
    const above = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD;
    const atLeast = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
    const id = fn.node.id;
    this.alarm(
      `${id}ServerErrorRate`,
      `${operation}-5xx-rate`,
      `${operation} answered more than ${m.serverErrorPercent}% of its requests with a 5xx status; its function's log has the errors`,
      this.serverErrorRate(operation),
      m.serverErrorPercent,
      above,
    );
    this.alarm(
      `${id}LatencyP99`,
      `${operation}-latency-p99`,
      `p99 of ${operation}'s handler time is above ${latencyMs} ms`,
      this.emf(operation, METRICS.latency, 'p99', 'p99'),
      latencyMs,
      above,
    );
    this.alarm(
      `${id}LambdaErrors`,
      `${operation}-lambda-errors`,
      `${operation}'s function failed ${m.errorCount} or more times (crash, timeout or out of memory: no answer of its own)`,
      fn.function.metricErrors({ period: this.period, statistic: 'Sum' }),
      m.errorCount,
      atLeast,
    );
    this.alarm(
      `${id}LambdaThrottles`,
      `${operation}-lambda-throttles`,
      `${operation}'s function was throttled ${m.throttleCount} or more times (concurrency limit of the account or region)`,
      fn.function.metricThrottles({ period: this.period, statistic: 'Sum' }),
      m.throttleCount,
      atLeast,
    );
  }

  private tableMetrics(table: dynamodb.TableV2) {
    const metric = (metricName: string, dimensionsMap: Record<string, string>, label: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap, statistic: 'Sum', period: this.period, label });
    const tableName = table.tableName;
    const indexes = Object.values(INDEXES).map((i) => i.indexName);
    // The table and each index: an index's throttling is reported under its own dimension.
    const scopes: [string, Record<string, string>][] = [
      ['table', { TableName: tableName }],
      ...indexes.map((name): [string, Record<string, string>] => [name, { TableName: tableName, GlobalSecondaryIndexName: name }]),
    ];
    // Ids are unique per expression: a graph shows several of them.
    const sum = (prefix: string, label: string, metrics: cloudwatch.Metric[]) => {
      if (metrics.length > MAX_ALARM_METRICS) throw new Error(`${label}: ${metrics.length} metrics, an alarm takes at most ${MAX_ALARM_METRICS}`);
      const usingMetrics = Object.fromEntries(metrics.map((mt, i) => [`${prefix}${i}`, mt]));
      return new cloudwatch.MathExpression({
        // DynamoDB reports these only when they happen.
        expression: Object.keys(usingMetrics)
          .map((k) => `FILL(${k}, 0)`)
          .join(' + '),
        usingMetrics,
        period: this.period,
        label,
      });
    };
    // Consumed units per second, the unit of the on-demand maximum.
    const perSecond = (id: string, metricName: string, [scope, dims]: [string, Record<string, string>], label: string) =>
      new cloudwatch.MathExpression({
        expression: `${id} / PERIOD(${id})`,
        usingMetrics: { [id]: metric(metricName, dims, `${scope} ${label}`) },
        period: this.period,
        label: `${scope} ${label}/s`,
      });
    return {
      readThrottles: sum(
        'rt',
        'read throttle events',
        scopes.map(([s, d]) => metric('ReadThrottleEvents', d, s)),
      ),
      writeThrottles: sum(
        'wt',
        'write throttle events',
        scopes.map(([s, d]) => metric('WriteThrottleEvents', d, s)),
      ),
      systemErrors: sum(
        'se',
        'system errors',
        TABLE_OPERATIONS.map((op) => metric('SystemErrors', { TableName: tableName, Operation: op }, op)),
      ),
      readUnits: scopes.map((s, i) => perSecond(`ru${i}`, 'ConsumedReadCapacityUnits', s, 'read units')),
      writeUnits: scopes.map((s, i) => perSecond(`wu${i}`, 'ConsumedWriteCapacityUnits', s, 'write units')),
    };
  }

  private tableAlarms(table: ReturnType<Monitoring['tableMetrics']>): void {
    const m = this.settings.monitoring;
    const atLeast = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
    this.alarm(
      'TableReadThrottles',
      'dynamodb-read-throttles',
      `The table or an index throttled ${m.throttleCount} or more reads: reads reach maxReadRequestUnits (${this.settings.maxReadRequestUnits}/s) or one partition's limit`,
      table.readThrottles,
      m.throttleCount,
      atLeast,
    );
    this.alarm(
      'TableWriteThrottles',
      'dynamodb-write-throttles',
      `The table or an index throttled ${m.throttleCount} or more writes: writes reach maxWriteRequestUnits (${this.settings.maxWriteRequestUnits}/s) or one partition's limit`,
      table.writeThrottles,
      m.throttleCount,
      atLeast,
    );
    this.alarm(
      'TableSystemErrors',
      'dynamodb-system-errors',
      `DynamoDB answered ${m.errorCount} or more requests with an internal error (HTTP 500)`,
      table.systemErrors,
      m.errorCount,
      atLeast,
    );
  }

  private streamMetrics(stream: ChangeStream) {
    const fn = stream.consumer.function;
    const id = STREAM_CONSUMER.id;
    return {
      records: this.emf(id, METRICS.streamRecords, 'Sum', 'records'),
      failures: this.emf(id, METRICS.streamFailures, 'Sum', 'failed records'),
      lag: this.emf(id, METRICS.streamLag, 'Maximum', 'lag (ms)'),
      errors: fn.metricErrors({ period: this.period, statistic: 'Sum', label: 'Lambda errors' }),
      throttles: fn.metricThrottles({ period: this.period, statistic: 'Sum', label: 'Lambda throttles' }),
      // Lambda's own measure of the mapping's backlog: the age of the last record of each batch.
      iteratorAge: fn.metric('IteratorAge', { period: this.period, statistic: 'Maximum', label: 'iterator age (ms)' }),
      deadLetters: stream.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: this.period, statistic: 'Maximum', label: 'dead letters' }),
    };
  }

  private streamAlarms(stream: ReturnType<Monitoring['streamMetrics']>): void {
    const m = this.settings.monitoring;
    const id = STREAM_CONSUMER.id;
    this.alarm(
      'StreamConsumerErrors',
      `${id}-errors`,
      `The stream consumer failed ${m.errorCount} or more times (a failed record of a trigger, or the function itself); its log has the errors`,
      new cloudwatch.MathExpression({
        // Partial batch failures are answers, not Lambda errors: both count.
        expression: 'FILL(errors, 0) + FILL(failures, 0)',
        usingMetrics: { errors: stream.errors, failures: stream.failures },
        period: this.period,
        label: 'errors and failed records',
      }),
      m.errorCount,
      cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    );
    this.alarm(
      'StreamConsumerIteratorAge',
      `${id}-iterator-age`,
      `The stream consumer is more than ${ITERATOR_AGE_ALARM_MS / 60_000} minutes behind the table's writes (failing, throttled or stopped)`,
      stream.iteratorAge,
      ITERATOR_AGE_ALARM_MS,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    );
    this.alarm(
      'StreamDeadLetters',
      `${id}-dead-letters`,
      'Stream records exhausted their retries and were sent to the dead-letter queue: the changes they carry were not applied by every trigger',
      stream.deadLetters,
      0,
      cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    );
  }

  private streamWidgets(stream: ReturnType<Monitoring['streamMetrics']>): cloudwatch.IWidget[] {
    const size = { width: 6, height: 5 };
    const id = STREAM_CONSUMER.id;
    return [
      new cloudwatch.GraphWidget({ ...size, title: `${id}: records, failed records`, left: [stream.records, stream.failures] }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${id}: lag and iterator age (ms)`,
        left: [stream.lag, stream.iteratorAge],
        leftAnnotations: [{ value: ITERATOR_AGE_ALARM_MS, label: 'iterator age alarm' }],
      }),
      new cloudwatch.GraphWidget({ ...size, title: `${id}: dead letters`, left: [stream.deadLetters] }),
      new cloudwatch.GraphWidget({ ...size, title: `${id}: Lambda errors, throttles`, left: [stream.errors, stream.throttles] }),
    ];
  }

  private overviewWidgets(functions: [string, ApiFunction][], table: ReturnType<Monitoring['tableMetrics']>): cloudwatch.IWidget[] {
    // Ids are unique per expression: a graph shows several of them.
    const total = (prefix: string, label: string, metrics: cloudwatch.IMetric[]) =>
      new cloudwatch.MathExpression({
        expression: `SUM([${metrics.map((_, i) => `${prefix}${i}`).join(', ')}])`,
        usingMetrics: Object.fromEntries(metrics.map((mt, i) => [`${prefix}${i}`, mt])),
        period: this.period,
        label,
      });
    const emfTotal = (prefix: string, metricName: string, label: string) =>
      total(
        prefix,
        label,
        functions.map(([op]) => this.emf(op, metricName, 'Sum', op)),
      );
    const size = { width: 6, height: 6 };
    return [
      new cloudwatch.GraphWidget({
        ...size,
        title: 'All functions: requests, 4xx, 5xx',
        left: [emfTotal('rq', METRICS.requests, 'requests'), emfTotal('ce', METRICS.clientErrors, '4xx'), emfTotal('se', METRICS.serverErrors, '5xx')],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: 'All functions: Lambda errors, throttles',
        left: [
          total(
            'le',
            'errors',
            functions.map(([op, fn]) => fn.function.metricErrors({ period: this.period, statistic: 'Sum', label: op })),
          ),
          total(
            'lt',
            'throttles',
            functions.map(([op, fn]) => fn.function.metricThrottles({ period: this.period, statistic: 'Sum', label: op })),
          ),
        ],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: 'DynamoDB: throttle events, system errors',
        left: [table.readThrottles, table.writeThrottles, table.systemErrors],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: 'DynamoDB: consumed units per second (table and each index)',
        left: table.readUnits,
        right: table.writeUnits,
        leftAnnotations: [{ value: this.settings.maxReadRequestUnits, label: 'maxReadRequestUnits' }],
        rightAnnotations: [{ value: this.settings.maxWriteRequestUnits, label: 'maxWriteRequestUnits' }],
      }),
    ];
  }

  private functionWidgets(operation: string, fn: ApiFunction, latencyMs: number): cloudwatch.IWidget[] {
    const size = { width: 6, height: 5 };
    return [
      new cloudwatch.GraphWidget({
        ...size,
        title: `${operation}: requests, 4xx, 5xx`,
        left: [
          this.emf(operation, METRICS.requests, 'Sum', 'requests'),
          this.emf(operation, METRICS.clientErrors, 'Sum', '4xx'),
          this.emf(operation, METRICS.serverErrors, 'Sum', '5xx'),
        ],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${operation}: latency (ms)`,
        left: [this.emf(operation, METRICS.latency, 'p50', 'p50'), this.emf(operation, METRICS.latency, 'p99', 'p99')],
        leftAnnotations: [{ value: latencyMs, label: 'p99 alarm' }],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${operation}: read and write units`,
        left: [this.emf(operation, METRICS.readUnits, 'Sum', 'read units'), this.emf(operation, METRICS.writeUnits, 'Sum', 'write units')],
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${operation}: Lambda errors, throttles`,
        left: [
          fn.function.metricErrors({ period: this.period, statistic: 'Sum', label: 'errors' }),
          fn.function.metricThrottles({ period: this.period, statistic: 'Sum', label: 'throttles' }),
        ],
      }),
    ];
  }
}
