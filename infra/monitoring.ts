// Alarms and a dashboard for every function of the stack, from the same operation table: the
// handlers' EMF metrics (lib/observe/metric-names.ts) per operation, Lambda's own errors and throttles per
// function, the table's throttling and system errors, and the stream consumer's failures, lag and
// dead letters. Every alarm notifies one SNS topic.
//
// The topic and the alarms of the parent's own functions and table live in a nested stack
// (Monitoring); each operation's four alarms live in its group's nested stack, beside its function
// (infra/operation-stack.ts), made by the same AlarmFactory. Four alarms per function fit in no
// single template at 200 operations, while each group stays small.
// The dashboard shows one row per group of operations (a line per operation), so that it stays
// within CloudWatch's widgets and metrics per dashboard however many operations there are.
import { Aws, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { WRITE_ACTIONS } from '#lib/contract/grants.js';
import { METRICS, OPERATION_DIMENSION, stackMetricNamespace } from '#lib/observe/metric-names.js';
import { FALLBACK_HANDLER } from '#lib/contract/operations.js';
import { STREAM_CONSUMER, WEBHOOK_SENDER } from '#lib/stream/functions.js';
import { INDEXES } from '#lib/store/table.js';
import { functionId, moduleId, type ApiFunction } from './api-function.js';
import type { StackSettings } from './settings.js';
import type { ChangeStream } from './stream.js';
import type { WebhookDelivery } from './webhooks.js';
import type { Schedules } from './schedules.js';

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

/** A function and the operation (or module) id its metrics carry. */
export interface MonitoredFunction {
  operation: string;
  fn: ApiFunction;
  /** Operations that rewrite linked events get the looser latency alarm. */
  fansOut: boolean;
}

/** The functions of one group of operations: one row of the dashboard. */
export interface MonitoredGroup {
  id: string;
  functions: readonly MonitoredFunction[];
}

/** The handlers' EMF metrics of one stack (`prefix` is the parent stack's name, a literal). */
class Metrics {
  readonly namespace: string;
  readonly period: Duration;

  constructor(
    readonly prefix: string,
    readonly settings: StackSettings,
  ) {
    this.namespace = stackMetricNamespace(prefix);
    this.period = Duration.minutes(settings.monitoring.periodMinutes);
  }

  emf(operation: string, metricName: string, statistic: string, label: string): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: this.namespace,
      metricName,
      dimensionsMap: { [OPERATION_DIMENSION]: operation },
      statistic,
      period: this.period,
      label,
    });
  }

  serverErrorRate(operation: string): cloudwatch.MathExpression {
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
}

/** One alarm: its construct id, its name after the stack's, what it says, and when it fires. */
interface AlarmSpec {
  id: string;
  name: string;
  description: string;
  metric: cloudwatch.IMetric;
  threshold: number;
  comparison: cloudwatch.ComparisonOperator;
}

/**
 * Makes every alarm of the stack, in whichever (nested) stack the alarmed function lives: named
 * after the parent stack, evaluated as the settings say, notifying the one topic.
 */
export class AlarmFactory extends Metrics {
  private readonly action: SnsAction;

  constructor(prefix: string, settings: StackSettings, topic: sns.ITopic) {
    super(prefix, settings);
    this.action = new SnsAction(topic);
  }

  alarm(scope: Construct, { id, name, description, metric, threshold, comparison }: AlarmSpec): cloudwatch.Alarm {
    const m = this.settings.monitoring;
    const alarm = new cloudwatch.Alarm(scope, id, {
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
    return alarm;
  }

  /** The four alarms of an API function: 5xx rate, p99 latency, Lambda errors and throttles. */
  functionAlarms(scope: Construct, { operation, fn, fansOut }: MonitoredFunction): cloudwatch.Alarm[] {
    const m = this.settings.monitoring;
    const latencyMs = fansOut ? m.fanOutLatencyMs : m.latencyMs;
    const above = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD;
    const atLeast = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
    const id = fn.node.id;
    return [
      this.alarm(scope, {
        id: `${id}ServerErrorRate`,
        name: `${operation}-5xx-rate`,
        description: `${operation} answered more than ${m.serverErrorPercent}% of its requests with a 5xx status; its function's log has the errors`,
        metric: this.serverErrorRate(operation),
        threshold: m.serverErrorPercent,
        comparison: above,
      }),
      this.alarm(scope, {
        id: `${id}LatencyP99`,
        name: `${operation}-latency-p99`,
        description: `p99 of ${operation}'s handler time is above ${latencyMs} ms`,
        metric: this.emf(operation, METRICS.latency, 'p99', 'p99'),
        threshold: latencyMs,
        comparison: above,
      }),
      this.alarm(scope, {
        id: `${id}LambdaErrors`,
        name: `${operation}-lambda-errors`,
        description: `${operation}'s function failed ${m.errorCount} or more times (crash, timeout or out of memory: no answer of its own)`,
        metric: fn.function.metricErrors({ period: this.period, statistic: 'Sum' }),
        threshold: m.errorCount,
        comparison: atLeast,
      }),
      this.alarm(scope, {
        id: `${id}LambdaThrottles`,
        name: `${operation}-lambda-throttles`,
        description: `${operation}'s function was throttled ${m.throttleCount} or more times (concurrency limit of the account or region)`,
        metric: fn.function.metricThrottles({ period: this.period, statistic: 'Sum' }),
        threshold: m.throttleCount,
        comparison: atLeast,
      }),
    ];
  }
}

export interface MonitoringProps {
  /** The `$default` route's function (`root.noRoute`). */
  fallback: ApiFunction;
  table: dynamodb.TableV2;
  /** The table stream's consumer and its dead-letter queue. */
  stream: ChangeStream;
  /** The webhook queue, its dead-letter queue and its sender. */
  webhooks: WebhookDelivery;
  /** The functions that run on a schedule. */
  schedules: Schedules;
  settings: StackSettings;
}

/** The alarm topic, and the alarms of the parent's own functions and of the table. */
export class Monitoring extends NestedStack {
  readonly topic: sns.Topic;
  readonly alarmFactory: AlarmFactory;
  /** The alarms of this nested stack (the operations' are in their groups' stacks). */
  readonly alarms: cloudwatch.Alarm[] = [];
  private readonly settings: StackSettings;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: 'Alarm topic and the table, stream and fallback alarms of the Event Calendar API' });
    this.settings = props.settings;
    const m = props.settings.monitoring;
    // The parent's name (a literal): this stack's own name is generated.
    const prefix = Stack.of(scope).stackName;

    // No server-side encryption: CloudWatch cannot publish to a topic under the AWS managed key
    // (its key policy cannot let CloudWatch use it), and alarm messages carry names and numbers,
    // no records. Publishing is allowed over TLS only.
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${prefix} alarms`, enforceSSL: true });
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
    this.alarmFactory = new AlarmFactory(prefix, props.settings, this.topic);

    this.alarms.push(...this.alarmFactory.functionAlarms(this, { operation: moduleId(FALLBACK_HANDLER), fn: props.fallback, fansOut: false }));
    const table = tableMetrics(this.alarmFactory, props.table);
    this.tableAlarms(table);
    this.streamAlarms(streamMetrics(this.alarmFactory, props.stream));
    this.webhookAlarms(webhookMetrics(this.alarmFactory, props.webhooks));
    for (const { id, metric } of props.schedules.errorMetrics(this.alarmFactory.period)) {
      this.alarm({
        id: `${functionId(id)}Errors`,
        name: `${id}-errors`,
        description: `The scheduled function ${id} failed ${m.errorCount} or more times (after EventBridge's retries, its work waits for its next run); its log has the errors`,
        metric,
        threshold: m.errorCount,
        comparison: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }
  }

  private webhookAlarms(w: WebhookMetrics): void {
    const m = this.settings.monitoring;
    const id = WEBHOOK_SENDER.id;
    const atLeast = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
    this.alarm({
      id: 'WebhookSenderErrors',
      name: `${id}-errors`,
      description: `The webhook sender failed ${m.errorCount} or more times itself (not a receiver's refusal: a crash, a timeout, the table); its log has the errors`,
      metric: w.errors,
      threshold: m.errorCount,
      comparison: atLeast,
    });
    this.alarm({
      id: 'WebhookGivenUp',
      name: `${id}-given-up`,
      description: "A webhook message was given up on after three days of retries: its subscription is marked failing, the message kept in the subscription's deliveries",
      metric: w.givenUp,
      threshold: 1,
      comparison: atLeast,
    });
    this.alarm({
      id: 'WebhookDeadLetters',
      name: `${id}-dead-letters`,
      description: 'Webhook messages the sender could not handle at all reached the dead-letter queue: they were neither delivered nor given up on',
      metric: w.deadLetters,
      threshold: 0,
      comparison: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
  }

  private alarm(spec: AlarmSpec): void {
    this.alarms.push(this.alarmFactory.alarm(this, spec));
  }

  private tableAlarms(table: TableMetrics): void {
    const m = this.settings.monitoring;
    const atLeast = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
    this.alarm({
      id: 'TableReadThrottles',
      name: 'dynamodb-read-throttles',
      description: `The table or an index throttled ${m.throttleCount} or more reads: reads reach maxReadRequestUnits (${this.settings.maxReadRequestUnits}/s) or one partition's limit`,
      metric: table.readThrottles,
      threshold: m.throttleCount,
      comparison: atLeast,
    });
    this.alarm({
      id: 'TableWriteThrottles',
      name: 'dynamodb-write-throttles',
      description: `The table or an index throttled ${m.throttleCount} or more writes: writes reach maxWriteRequestUnits (${this.settings.maxWriteRequestUnits}/s) or one partition's limit`,
      metric: table.writeThrottles,
      threshold: m.throttleCount,
      comparison: atLeast,
    });
    this.alarm({
      id: 'TableSystemErrors',
      name: 'dynamodb-system-errors',
      description: `DynamoDB answered ${m.errorCount} or more requests with an internal error (HTTP 500)`,
      metric: table.systemErrors,
      threshold: m.errorCount,
      comparison: atLeast,
    });
  }

  private streamAlarms(stream: StreamMetrics): void {
    const m = this.settings.monitoring;
    const id = STREAM_CONSUMER.id;
    this.alarm({
      id: 'StreamConsumerErrors',
      name: `${id}-errors`,
      description: `The stream consumer failed ${m.errorCount} or more times (a failed record of a trigger, or the function itself); its log has the errors`,
      metric: new cloudwatch.MathExpression({
        // Partial batch failures are answers, not Lambda errors: both count.
        expression: 'FILL(errors, 0) + FILL(failures, 0)',
        usingMetrics: { errors: stream.errors, failures: stream.failures },
        period: this.alarmFactory.period,
        label: 'errors and failed records',
      }),
      threshold: m.errorCount,
      comparison: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.alarm({
      id: 'StreamConsumerIteratorAge',
      name: `${id}-iterator-age`,
      description: `The stream consumer is more than ${ITERATOR_AGE_ALARM_MS / 60_000} minutes behind the table's writes (failing, throttled or stopped)`,
      metric: stream.iteratorAge,
      threshold: ITERATOR_AGE_ALARM_MS,
      comparison: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.alarm({
      id: 'StreamDeadLetters',
      name: `${id}-dead-letters`,
      description: 'Stream records exhausted their retries and were sent to the dead-letter queue: the changes they carry were not applied by every trigger',
      metric: stream.deadLetters,
      threshold: 0,
      comparison: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
  }
}

type TableMetrics = ReturnType<typeof tableMetrics>;
type StreamMetrics = ReturnType<typeof streamMetrics>;
type WebhookMetrics = ReturnType<typeof webhookMetrics>;

function webhookMetrics(metrics: Metrics, webhooks: WebhookDelivery) {
  const period = metrics.period;
  const id = WEBHOOK_SENDER.id;
  return {
    givenUp: metrics.emf(id, METRICS.webhookGivenUp, 'Sum', 'given up'),
    errors: webhooks.sender.function.metricErrors({ period, statistic: 'Sum', label: 'Lambda errors' }),
    deadLetters: webhooks.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label: 'dead letters' }),
  };
}

function tableMetrics(metrics: Metrics, table: dynamodb.TableV2) {
  const period = metrics.period;
  const metric = (metricName: string, dimensionsMap: Record<string, string>, label: string) =>
    new cloudwatch.Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap, statistic: 'Sum', period, label });
  const tableName = table.tableName;
  const indexes = Object.values(INDEXES).map((i) => i.indexName);
  // The table and each index: an index's throttling is reported under its own dimension.
  const scopes: [string, Record<string, string>][] = [
    ['table', { TableName: tableName }],
    ...indexes.map((name): [string, Record<string, string>] => [name, { TableName: tableName, GlobalSecondaryIndexName: name }]),
  ];
  // Ids are unique per expression: a graph shows several of them.
  const sum = (prefix: string, label: string, ms: cloudwatch.Metric[]) => {
    if (ms.length > MAX_ALARM_METRICS) throw new Error(`${label}: ${ms.length} metrics, an alarm takes at most ${MAX_ALARM_METRICS}`);
    const usingMetrics = Object.fromEntries(ms.map((mt, i) => [`${prefix}${i}`, mt]));
    return new cloudwatch.MathExpression({
      // DynamoDB reports these only when they happen.
      expression: Object.keys(usingMetrics)
        .map((k) => `FILL(${k}, 0)`)
        .join(' + '),
      usingMetrics,
      period,
      label,
    });
  };
  // Consumed units per second, the unit of the on-demand maximum.
  const perSecond = (id: string, metricName: string, [scope, dims]: [string, Record<string, string>], label: string) =>
    new cloudwatch.MathExpression({
      expression: `${id} / PERIOD(${id})`,
      usingMetrics: { [id]: metric(metricName, dims, `${scope} ${label}`) },
      period,
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

function streamMetrics(metrics: Metrics, stream: ChangeStream) {
  const fn = stream.consumer.function;
  const id = STREAM_CONSUMER.id;
  const period = metrics.period;
  return {
    records: metrics.emf(id, METRICS.streamRecords, 'Sum', 'records'),
    failures: metrics.emf(id, METRICS.streamFailures, 'Sum', 'failed records'),
    lag: metrics.emf(id, METRICS.streamLag, 'Maximum', 'lag (ms)'),
    errors: fn.metricErrors({ period, statistic: 'Sum', label: 'Lambda errors' }),
    throttles: fn.metricThrottles({ period, statistic: 'Sum', label: 'Lambda throttles' }),
    // Lambda's own measure of the mapping's backlog: the age of the last record of each batch.
    iteratorAge: fn.metric('IteratorAge', { period, statistic: 'Maximum', label: 'iterator age (ms)' }),
    deadLetters: stream.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label: 'dead letters' }),
  };
}

export interface OperationsDashboardProps {
  settings: StackSettings;
  /** The operations' functions, by group (infra/operation-groups.ts). */
  groups: readonly MonitoredGroup[];
  /** The `$default` route's function (`root.noRoute`). */
  fallback: ApiFunction;
  table: dynamodb.TableV2;
  stream: ChangeStream;
}

/**
 * The one dashboard, in the parent stack: it reads the function names of every group's nested
 * stack as that stack's outputs, which cost the parent no parameter.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  private readonly metrics: Metrics;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const prefix = Stack.of(this).stackName;
    const metrics = (this.metrics = new Metrics(prefix, props.settings));
    const fallback: MonitoredGroup = { id: 'fallback', functions: [{ operation: moduleId(FALLBACK_HANDLER), fn: props.fallback, fansOut: false }] };
    const groups = [...props.groups, fallback];
    const table = tableMetrics(metrics, props.table);
    const stream = streamMetrics(metrics, props.stream);

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Dashboard names are per account, not per region.
      dashboardName: `${prefix}-${Aws.REGION}`,
      widgets: [
        [
          new cloudwatch.TextWidget({
            width: 24,
            height: 2,
            markdown:
              `### ${prefix}\n` +
              `One row per group of operations, a line per operation: the handlers' metrics (namespace \`${metrics.namespace}\`, dimension \`${OPERATION_DIMENSION}\`) ` +
              "and the functions' Lambda metrics. Alarms are named after the stack and notify the topic of the stack output `AlarmTopicArn`.",
          }),
        ],
        this.overviewWidgets(table),
        this.streamWidgets(stream),
        ...groups.map((g) => this.groupWidgets(g)),
      ],
    });
  }

  private overviewWidgets(table: TableMetrics): cloudwatch.IWidget[] {
    const period = this.metrics.period;
    // The handlers' metrics of every operation, found by their one dimension: a single line each,
    // however many operations there are. Lambda's own metrics have no such dimension: they are in
    // the groups' rows, a line per function (a total here would name every function again, and
    // the root template would grow by it).
    const emfTotal = (metricName: string, label: string) =>
      new cloudwatch.MathExpression({
        expression: `SUM(SEARCH('{${this.metrics.namespace},${OPERATION_DIMENSION}} MetricName="${metricName}"', 'Sum', ${period.toSeconds()}))`,
        usingMetrics: {},
        period,
        label,
      });
    const size = { width: 6, height: 6 };
    return [
      new cloudwatch.GraphWidget({
        ...size,
        title: 'All functions: requests, 4xx, 5xx',
        left: [emfTotal(METRICS.requests, 'requests'), emfTotal(METRICS.clientErrors, '4xx'), emfTotal(METRICS.serverErrors, '5xx')],
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
        leftAnnotations: [{ value: this.metrics.settings.maxReadRequestUnits, label: 'maxReadRequestUnits' }],
        rightAnnotations: [{ value: this.metrics.settings.maxWriteRequestUnits, label: 'maxWriteRequestUnits' }],
      }),
    ];
  }

  private streamWidgets(stream: StreamMetrics): cloudwatch.IWidget[] {
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

  /** A group's row: each graph has a line per operation of the group, labelled with its id. */
  private groupWidgets(group: MonitoredGroup): cloudwatch.IWidget[] {
    const size = { width: 6, height: 6 };
    const m = this.metrics;
    const period = m.period;
    const each = (line: (f: MonitoredFunction) => cloudwatch.IMetric[]) => group.functions.flatMap(line);
    const latencies = [...new Set(group.functions.map((f) => (f.fansOut ? m.settings.monitoring.fanOutLatencyMs : m.settings.monitoring.latencyMs)))];
    return [
      new cloudwatch.GraphWidget({
        ...size,
        title: `${group.id}: requests, 4xx, 5xx`,
        left: each(({ operation: op }) => [
          m.emf(op, METRICS.requests, 'Sum', `${op} requests`),
          m.emf(op, METRICS.clientErrors, 'Sum', `${op} 4xx`),
          m.emf(op, METRICS.serverErrors, 'Sum', `${op} 5xx`),
        ]),
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${group.id}: latency (ms)`,
        left: each(({ operation: op }) => [m.emf(op, METRICS.latency, 'p50', `${op} p50`), m.emf(op, METRICS.latency, 'p99', `${op} p99`)]),
        leftAnnotations: latencies.map((value) => ({ value, label: 'p99 alarm' })),
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${group.id}: read and write units`,
        left: each(({ operation: op }) => [m.emf(op, METRICS.readUnits, 'Sum', `${op} read units`), m.emf(op, METRICS.writeUnits, 'Sum', `${op} write units`)]),
      }),
      new cloudwatch.GraphWidget({
        ...size,
        title: `${group.id}: Lambda errors, throttles`,
        left: each(({ operation: op, fn }) => [
          fn.function.metricErrors({ period, statistic: 'Sum', label: `${op} errors` }),
          fn.function.metricThrottles({ period, statistic: 'Sum', label: `${op} throttles` }),
        ]),
      }),
    ];
  }
}
