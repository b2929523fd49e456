// The alarms, the topic and the dashboard of infra/monitoring.ts, and the table's on-demand
// maximum, checked against the operation table and lib/observe/metric-names.ts rather than a snapshot.
// The alarms are spread over nested stacks (the topic's, and each group of operations'): they are
// read from the merged view of test/support/synth.ts, in which a reference across stacks reads as
// the parent's `{ Ref: <logical id> }` it stands for.
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { functionId, moduleId } from '../../infra/api-function.js';
import { ITERATOR_AGE_ALARM_MS, TABLE_OPERATIONS } from '../../infra/monitoring.js';
import { SCHEDULED_FUNCTIONS, STREAM_CONSUMER, WEBHOOK_SENDER } from '#lib/stream/functions.js';
import { readSettings } from '../../infra/settings.js';
import { METRICS, OPERATION_DIMENSION, stackMetricNamespace } from '#lib/observe/metric-names.js';
import { FALLBACK_HANDLER, OPERATIONS } from '#lib/contract/operations.js';
import { operationGroups } from '../../infra/operation-groups.js';
import { INDEXES } from '#lib/store/table.js';
import { expectNoNagFindings, expectWithinCloudFormationLimits, ofType, synth, type Resource, type Resources, type Synth } from '../support/synth.js';

type Monitored = Synth;

function monitored(context: Record<string, unknown> = {}): Monitored {
  return synth(context);
}

/** The template (construct path) that holds a logical id. */
const templateOf = (s: Monitored, logicalId: string) => s.templates.find((t) => t.json.Resources[logicalId])?.path;

const FALLBACK = moduleId(FALLBACK_HANDLER);
const ALL = [...OPERATIONS.map((op) => op.id), FALLBACK];
const FUNCTION_IDS = ALL.map(functionId);
const INDEX_NAMES = Object.values(INDEXES).map((i) => i.indexName);

/** Every setting changed, with an e-mail subscription. */
const CUSTOM = {
  alarmEmail: 'ops@example.org',
  alarmPeriodMinutes: '1',
  alarmEvaluationPeriods: '5',
  alarmDatapointsToAlarm: '3',
  alarm5xxPercent: '2.5',
  alarmLatencyMs: '1500',
  alarmFanOutLatencyMs: '9000',
  alarmErrorCount: '3',
  alarmThrottleCount: '4',
  maxReadRequestUnits: '300',
  maxWriteRequestUnits: '50',
};

let prod: Monitored;
let custom: Monitored;

beforeAll(() => {
  prod = monitored();
  custom = monitored(CUSTOM);
}, 120_000);

afterAll(() => vi.restoreAllMocks());

type Alarm = Record<string, any>;
const alarms = (s: Monitored): Alarm[] => ofType(s.resources, 'AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);

/** The logical id behind a `{ Ref }` (references across stacks are resolved by the merge). */
const parentRef = (_s: Monitored, value: { Ref: string }): string | undefined => value.Ref;

/** The metrics (MetricStat) of an alarm's math expression. */
const mathMetrics = (a: Alarm): { Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: any }[] }; Stat: string; Period: number }[] =>
  ((a.Metrics ?? []) as { MetricStat?: any }[]).flatMap((m) => (m.MetricStat ? [m.MetricStat] : []));

const operationOf = (dims: { Name: string; Value: unknown }[]) => dims.find((d) => d.Name === OPERATION_DIMENSION)?.Value;

function serverErrorAlarms(s: Monitored): Map<string, Alarm> {
  const out = new Map<string, Alarm>();
  for (const a of alarms(s)) {
    const stats = mathMetrics(a);
    const errors = stats.find((m) => m.Metric.MetricName === METRICS.serverErrors);
    if (errors) out.set(String(operationOf(errors.Metric.Dimensions)), a);
  }
  return out;
}

/** Alarms on one metric (no expression), by operation, with that metric however CDK renders it. */
function latencyAlarms(s: Monitored): Map<string, { alarm: Alarm; stat: ReturnType<typeof mathMetrics>[number] }> {
  const out = new Map<string, { alarm: Alarm; stat: ReturnType<typeof mathMetrics>[number] }>();
  for (const a of alarms(s)) {
    const stats = a.Metrics
      ? mathMetrics(a)
      : [{ Metric: { Namespace: a.Namespace, MetricName: a.MetricName, Dimensions: a.Dimensions }, Stat: a.ExtendedStatistic ?? a.Statistic, Period: a.Period }];
    const latency = stats.filter((m) => m.Metric.MetricName === METRICS.latency);
    if (latency.length === 0) continue;
    expect(stats, a.AlarmName).toHaveLength(1);
    expect(
      (a.Metrics ?? []).filter((m: { Expression?: string }) => m.Expression),
      a.AlarmName,
    ).toEqual([]);
    out.set(String(operationOf(latency[0]!.Metric.Dimensions)), { alarm: a, stat: latency[0]! });
  }
  return out;
}

/** Lambda alarms of one metric, by the parent's function logical id. */
function lambdaAlarms(s: Monitored, metricName: string): Map<string, Alarm> {
  const out = new Map<string, Alarm>();
  for (const a of alarms(s)) {
    if (a.Namespace !== 'AWS/Lambda' || a.MetricName !== metricName) continue;
    const [dim] = a.Dimensions as [{ Name: string; Value: { Ref: string } }];
    expect(dim.Name).toBe('FunctionName');
    out.set(String(parentRef(s, dim.Value)), a);
  }
  return out;
}

/** The one alarm whose expression sums `metricName` of the table. */
function tableAlarm(s: Monitored, metricName: string): Alarm {
  const found = alarms(s).filter((a) => mathMetrics(a).some((m) => m.Metric.Namespace === 'AWS/DynamoDB' && m.Metric.MetricName === metricName));
  expect(found, metricName).toHaveLength(1);
  return found[0]!;
}

const tableLogicalId = (s: Monitored) => ofType(s.resources, 'AWS::DynamoDB::GlobalTable')[0]![0];
const topicId = (s: Monitored) => ofType(s.resources, 'AWS::SNS::Topic').map(([id]) => id);

describe('alarms per operation', () => {
  it('alarms on the 5xx rate (Status5xx / Requests) of every operation and the fallback', () => {
    for (const [s, percent, period] of [
      [prod, 5, 300],
      [custom, 2.5, 60],
    ] as const) {
      const byOp = serverErrorAlarms(s);
      expect([...byOp.keys()].sort()).toEqual([...ALL].sort());
      for (const [op, a] of byOp) {
        const math = (a.Metrics as { Expression?: string; Id: string; ReturnData?: boolean }[]).filter((m) => m.Expression);
        expect(math, op).toHaveLength(1);
        const stats: Record<string, { Id: string; MetricStat: any }> = Object.fromEntries(
          (a.Metrics as { Id: string; MetricStat?: any }[]).filter((m) => m.MetricStat).map((m) => [m.MetricStat.Metric.MetricName, m]),
        );
        expect(Object.keys(stats).sort(), op).toEqual([METRICS.requests, METRICS.serverErrors].sort());
        for (const m of Object.values(stats)) {
          expect(m.MetricStat, op).toMatchObject({
            Stat: 'Sum',
            Period: period,
            Metric: { Namespace: stackMetricNamespace(prod.stack.stackName), Dimensions: [{ Name: OPERATION_DIMENSION, Value: op }] },
          });
        }
        // 5xx divided by requests, as a percentage.
        const expression = math[0]!.Expression!;
        expect(expression.indexOf(stats[METRICS.serverErrors]!.Id), op).toBeLessThan(expression.indexOf('/'));
        expect(expression.slice(expression.indexOf('/')), op).toContain(stats[METRICS.requests]!.Id);
        expect(expression, op).toMatch(/^100 \*/);
        expect(a, op).toMatchObject({ Threshold: percent, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
      }
    }
  });

  it('alarms on the p99 latency of every operation and the fallback, longer for operations that fan out', () => {
    for (const [s, normal, fanOut, period] of [
      [prod, 3000, 15000, 300],
      [custom, 1500, 9000, 60],
    ] as const) {
      const byOp = latencyAlarms(s);
      expect([...byOp.keys()].sort()).toEqual([...ALL].sort());
      for (const [op, { alarm: a, stat }] of byOp) {
        expect(stat, op).toEqual({
          Metric: { Namespace: stackMetricNamespace(prod.stack.stackName), MetricName: METRICS.latency, Dimensions: [{ Name: OPERATION_DIMENSION, Value: op }] },
          Stat: 'p99',
          Period: period,
        });
        expect(a, op).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
        const fans = OPERATIONS.find((o) => o.id === op)?.fansOut ?? false;
        expect(a.Threshold, op).toBe(fans ? fanOut : normal);
      }
    }
    expect(OPERATIONS.some((op) => op.fansOut)).toBe(true);
  });

  it('alarms on Lambda Errors and Throttles of every function', () => {
    for (const [s, errors, throttles] of [
      [prod, 1, 1],
      [custom, 3, 4],
    ] as const) {
      for (const [metric, threshold] of [
        ['Errors', errors],
        ['Throttles', throttles],
      ] as const) {
        const byFn = lambdaAlarms(s, metric);
        expect([...byFn.keys()].sort(), metric).toEqual([...FUNCTION_IDS].sort());
        for (const [fn, a] of byFn) {
          expect(s.resources[fn]!.Type).toBe('AWS::Lambda::Function');
          expect(a, fn).toMatchObject({ Statistic: 'Sum', Threshold: threshold, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
        }
      }
    }
  });

  it('evaluates every alarm over the configured periods', () => {
    for (const [s, evaluation, datapoints] of [
      [prod, 3, 2],
      [custom, 5, 3],
    ] as const) {
      for (const a of alarms(s)) expect(a, a.AlarmName).toMatchObject({ EvaluationPeriods: evaluation, DatapointsToAlarm: datapoints });
    }
  });
});

describe('table alarms', () => {
  it('alarms on read and write throttle events of the table and of every index', () => {
    for (const s of [prod, custom]) {
      for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
        const a = tableAlarm(s, metric);
        const scopes = mathMetrics(a).map((m) => {
          const dims = Object.fromEntries(m.Metric.Dimensions.map((d) => [d.Name, d.Value]));
          expect(parentRef(s, dims.TableName)).toBe(tableLogicalId(s));
          return (dims.GlobalSecondaryIndexName as string | undefined) ?? 'table';
        });
        expect(scopes.sort(), metric).toEqual(['table', ...INDEX_NAMES].sort());
        expect(a.Threshold).toBe(s === prod ? 1 : 4);
      }
    }
  });

  it('alarms on SystemErrors of every DynamoDB operation the functions call', () => {
    expect([...TABLE_OPERATIONS].sort()).toEqual(['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
    for (const s of [prod, custom]) {
      const a = tableAlarm(s, 'SystemErrors');
      const ops = mathMetrics(a).map((m) => m.Metric.Dimensions.find((d) => d.Name === 'Operation')?.Value);
      expect(ops.sort()).toEqual([...TABLE_OPERATIONS].sort());
      // CloudWatch allows ten metrics in one alarm.
      expect(mathMetrics(a).length).toBeLessThanOrEqual(10);
      expect(a.Threshold).toBe(s === prod ? 1 : 3);
    }
  });

  it('has four alarms per function, three for the table, three for the stream consumer, three for the webhook sender and one per scheduled function, nothing else', () => {
    for (const s of [prod, custom]) expect(alarms(s)).toHaveLength(4 * ALL.length + 3 + 3 + 3 + SCHEDULED_FUNCTIONS.length);
  });

  it("alarms on each scheduled function's Lambda errors", () => {
    for (const s of [prod, custom]) {
      for (const f of SCHEDULED_FUNCTIONS) {
        const found = alarms(s).filter((a) => a.AlarmName === `${s.stack.stackName}-${f.id}-errors`);
        expect(found).toHaveLength(1);
        const a = found[0]!;
        const metric = a.Metrics ? mathMetrics(a)[0]! : { Metric: { Namespace: a.Namespace, MetricName: a.MetricName, Dimensions: a.Dimensions }, Stat: a.Statistic };
        expect(metric).toMatchObject({ Stat: 'Sum', Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors' } });
        expect(parentRef(s, metric.Metric.Dimensions[0]!.Value)).toBe(functionId(f.id));
        expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: s === prod ? 1 : 3 });
      }
    }
  });
});

describe('stream consumer alarms', () => {
  const consumerId = functionId(STREAM_CONSUMER.id);
  const byName = (s: Monitored, suffix: string) => {
    const found = alarms(s).filter((a) => a.AlarmName === `${s.stack.stackName}-${STREAM_CONSUMER.id}-${suffix}`);
    expect(found, suffix).toHaveLength(1);
    return found[0]!;
  };

  it('alarms on the consumer’s Lambda errors plus the records it reported failed', () => {
    for (const [s, threshold] of [
      [prod, 1],
      [custom, 3],
    ] as const) {
      const a = byName(s, 'errors');
      const stats = mathMetrics(a);
      const lambda = stats.find((m) => m.Metric.Namespace === 'AWS/Lambda')!;
      expect(lambda).toMatchObject({ Stat: 'Sum', Metric: { MetricName: 'Errors' } });
      expect(parentRef(s, lambda.Metric.Dimensions[0]!.Value)).toBe(consumerId);
      const failed = stats.find((m) => m.Metric.MetricName === METRICS.streamFailures)!;
      expect(failed).toMatchObject({
        Stat: 'Sum',
        Metric: { Namespace: stackMetricNamespace(prod.stack.stackName), Dimensions: [{ Name: OPERATION_DIMENSION, Value: STREAM_CONSUMER.id }] },
      });
      const expression = (a.Metrics as { Expression?: string }[]).find((m) => m.Expression)!.Expression!;
      expect(expression).toMatch(/\+/);
      expect(a).toMatchObject({ Threshold: threshold, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
    }
  });

  it('alarms when the consumer falls behind (IteratorAge) and when anything reaches the dead-letter queue', () => {
    // One metric, however CDK renders it (a labelled metric becomes a one-line Metrics array).
    const single = (a: Alarm) => {
      const stats = a.Metrics ? mathMetrics(a) : [{ Metric: { Namespace: a.Namespace, MetricName: a.MetricName, Dimensions: a.Dimensions }, Stat: a.Statistic, Period: a.Period }];
      expect(stats, a.AlarmName).toHaveLength(1);
      expect(
        (a.Metrics ?? []).filter((m: { Expression?: string }) => m.Expression),
        a.AlarmName,
      ).toEqual([]);
      return stats[0]!;
    };
    const age = byName(prod, 'iterator-age');
    expect(age).toMatchObject({ Threshold: ITERATOR_AGE_ALARM_MS, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
    const ageMetric = single(age);
    expect(ageMetric).toMatchObject({ Stat: 'Maximum', Metric: { Namespace: 'AWS/Lambda', MetricName: 'IteratorAge' } });
    expect(parentRef(prod, ageMetric.Metric.Dimensions[0]!.Value)).toBe(consumerId);
    const dead = byName(prod, 'dead-letters');
    expect(dead).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    const deadMetric = single(dead);
    expect(deadMetric).toMatchObject({ Stat: 'Maximum', Metric: { Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible' } });
    const queueName = (deadMetric.Metric.Dimensions as { Name: string; Value: unknown }[]).find((d) => d.Name === 'QueueName')!.Value;
    const [[queueId]] = ofType(prod.resources, 'AWS::SQS::Queue').filter(([id]) => id.startsWith('ChangeStream'));
    expect(queueName).toEqual({ 'Fn::GetAtt': [queueId, 'QueueName'] });
  });
});

describe('webhook sender alarms', () => {
  const byName = (s: Monitored, suffix: string) => {
    const found = alarms(s).filter((a) => a.AlarmName === `${s.stack.stackName}-${WEBHOOK_SENDER.id}-${suffix}`);
    expect(found, suffix).toHaveLength(1);
    return found[0]!;
  };
  const metricOf = (a: Alarm) => (a.Metrics ? mathMetrics(a)[0]! : { Metric: { Namespace: a.Namespace, MetricName: a.MetricName, Dimensions: a.Dimensions }, Stat: a.Statistic });

  it("alarms on the sender's own errors, on every message given up on, and on anything in its dead-letter queue", () => {
    const errors = metricOf(byName(prod, 'errors'));
    expect(errors).toMatchObject({ Stat: 'Sum', Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors' } });
    expect(parentRef(prod, errors.Metric.Dimensions[0]!.Value)).toBe(functionId(WEBHOOK_SENDER.id));
    const givenUp = byName(prod, 'given-up');
    expect(givenUp).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(metricOf(givenUp)).toMatchObject({ Stat: 'Sum', Metric: { MetricName: METRICS.webhookGivenUp, Namespace: stackMetricNamespace(prod.stack.stackName) } });
    expect(operationOf(metricOf(givenUp).Metric.Dimensions)).toBe(WEBHOOK_SENDER.id);
    const dead = byName(prod, 'dead-letters');
    expect(dead).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    const deadMetric = metricOf(dead);
    expect(deadMetric).toMatchObject({ Stat: 'Maximum', Metric: { Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible' } });
    const queueName = (deadMetric.Metric.Dimensions as { Name: string; Value: any }[]).find((d) => d.Name === 'QueueName')!.Value;
    const dlqs = ofType(prod.resources, 'AWS::SQS::Queue').filter(([id, q]) => id.startsWith('Webhooks') && !q.Properties.RedrivePolicy);
    expect(dlqs).toHaveLength(1);
    expect(queueName).toEqual({ 'Fn::GetAtt': [dlqs[0]![0], 'QueueName'] });
  });
});

describe('notification', () => {
  it('sends every alarm, and its recovery, to the one topic', () => {
    for (const s of [prod, custom]) {
      const topics = topicId(s);
      expect(topics).toHaveLength(1);
      for (const a of alarms(s)) {
        expect(a.AlarmActions, a.AlarmName).toEqual([{ Ref: topics[0] }]);
        expect(a.OKActions, a.AlarmName).toEqual([{ Ref: topics[0] }]);
      }
    }
  });

  it('lets only TLS publish to the topic, and this account’s alarms', () => {
    const [[, policy]] = ofType(prod.resources, 'AWS::SNS::TopicPolicy') as [[string, Resource]];
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId(prod)[0] }]);
    const statements = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Principal: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    const allow = statements.filter((st) => st.Effect === 'Allow');
    expect(allow).toHaveLength(1);
    expect(allow[0]).toMatchObject({
      Action: 'sns:Publish',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
  });

  it('subscribes alarmEmail only when it is given', () => {
    expect(ofType(prod.resources, 'AWS::SNS::Subscription')).toEqual([]);
    const subs = ofType(custom.resources, 'AWS::SNS::Subscription');
    expect(subs).toHaveLength(1);
    expect(subs[0]![1].Properties).toEqual({ Protocol: 'email', Endpoint: 'ops@example.org', TopicArn: { Ref: topicId(custom)[0] } });
  });

  it('publishes the topic ARN as the stack output AlarmTopicArn', () => {
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: any }>;
    const [nestedId, attribute] = outputs.AlarmTopicArn!.Value['Fn::GetAtt'] as [string, string];
    expect(prod.resources[nestedId]!.Type).toBe('AWS::CloudFormation::Stack');
    expect(attribute).toMatch(/^Outputs\./);
    // The nested stack's output is the topic itself.
    expect(prod.outputs.AlarmTopicArn!.Value).toEqual({ Ref: topicId(prod)[0] });
    expect(templateOf(prod, topicId(prod)[0]!)).toBe(prod.stack.monitoring.node.path);
  });
});

describe('dashboard', () => {
  /** The dashboard body, with each token written as `@<Ref>`, and every metric line of every graph. */
  function dashboard(s: Monitored) {
    const dashboards = ofType(s.resources, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const props = dashboards[0]![1].Properties;
    const parts = props.DashboardBody['Fn::Join'][1] as (string | { Ref: string })[];
    const body = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : `@${p.Ref}`)).join('')) as { widgets: { type: string; properties: Record<string, any> }[] };
    const graphs = body.widgets.filter((w) => w.type === 'metric');
    const lines = graphs.flatMap((w) => (w.properties.metrics as unknown[][]).map((m) => ({ title: w.properties.title as string, m })));
    return { name: props.DashboardName, body, graphs, lines };
  }

  /** `namespace|metric|dim=value,…|stat` of each metric line. */
  const keyOf = (m: unknown[]) => {
    const options = (typeof m.at(-1) === 'object' ? m.at(-1) : {}) as { stat?: string; expression?: string };
    if (options.expression) return `expr|${options.expression}`;
    const fields = m.filter((x) => typeof x === 'string') as string[];
    const dims = [];
    for (let i = 2; i < fields.length; i += 2) dims.push(`${fields[i]}=${fields[i + 1]}`);
    return `${fields[0]}|${fields[1]}|${dims.sort().join(',')}|${options.stat}`;
  };

  it('shows requests, 4xx, 5xx, p50, p99, read and write units, and Lambda errors and throttles of every operation', () => {
    const { lines, graphs } = dashboard(prod);
    const groupOf = new Map(operationGroups(OPERATIONS).flatMap((g) => g.operations.map((o) => [o.id, g.id] as const)));
    for (const op of ALL) {
      // The operation's lines are in its group's row.
      const group = groupOf.get(op) ?? 'fallback';
      const rowKeys = new Set(lines.filter((l) => l.title.startsWith(`${group}: `)).map((l) => keyOf(l.m)));
      const dim = `${OPERATION_DIMENSION}=${op}`;
      for (const [metric, stat] of [
        [METRICS.requests, 'Sum'],
        [METRICS.clientErrors, 'Sum'],
        [METRICS.serverErrors, 'Sum'],
        [METRICS.latency, 'p50'],
        [METRICS.latency, 'p99'],
        [METRICS.readUnits, 'Sum'],
        [METRICS.writeUnits, 'Sum'],
      ]) {
        expect(rowKeys, `${op} ${metric} ${stat}`).toContain(`${stackMetricNamespace(prod.stack.stackName)}|${metric}|${dim}|${stat}`);
      }
      // The function's name, an output of its group's nested stack.
      for (const metric of ['Errors', 'Throttles']) expect(rowKeys, `${op} ${metric}`).toContain(`AWS/Lambda|${metric}|FunctionName=@${functionId(op)}|Sum`);
      // Each line is labelled with its operation.
      for (const l of lines.filter((l) => l.title.startsWith(`${group}: `) && keyOf(l.m).includes(`=${op}|`))) {
        expect((l.m.at(-1) as { label: string }).label, op).toMatch(new RegExp(`^${op.replace('.', '\\.')} `));
      }
      // Each group has its row: four graphs titled with its id.
      expect(graphs.filter((g) => String(g.properties.title).startsWith(`${group}: `)).length, group).toBe(4);
    }
  });

  it('shows the table’s throttle events, system errors and consumed units against the maximum', () => {
    for (const [s, read, write] of [
      [prod, 1000, 200],
      [custom, 300, 50],
    ] as const) {
      const { lines, graphs } = dashboard(s);
      const keys = [...new Set(lines.map((l) => keyOf(l.m)))];
      for (const metric of ['ReadThrottleEvents', 'WriteThrottleEvents', 'ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits']) {
        for (const index of INDEX_NAMES)
          expect(
            keys.some((k) => k.startsWith(`AWS/DynamoDB|${metric}|GlobalSecondaryIndexName=${index},`)),
            `${metric} ${index}`,
          ).toBe(true);
        expect(
          keys.some((k) => /^AWS\/DynamoDB\|[A-Za-z]+\|TableName=@[^,|]+\|/.test(k) && k.includes(`|${metric}|`)),
          metric,
        ).toBe(true);
      }
      for (const op of TABLE_OPERATIONS)
        expect(
          keys.some((k) => k.startsWith(`AWS/DynamoDB|SystemErrors|Operation=${op},TableName=`)),
          op,
        ).toBe(true);
      const units = graphs.find((g) => g.properties.metrics.some((m: unknown[]) => m.includes('ConsumedReadCapacityUnits')))!;
      expect(units.properties.annotations.horizontal.map((a: { value: number }) => a.value).sort((a: number, b: number) => a - b)).toEqual([write, read]);
    }
  });

  it('shows the stream consumer’s records, failures, lag, iterator age and dead letters', () => {
    const { lines, graphs } = dashboard(prod);
    const keys = new Set(lines.map((l) => keyOf(l.m)));
    const dim = `${OPERATION_DIMENSION}=${STREAM_CONSUMER.id}`;
    for (const [metric, stat] of [
      [METRICS.streamRecords, 'Sum'],
      [METRICS.streamFailures, 'Sum'],
      [METRICS.streamLag, 'Maximum'],
    ]) {
      expect(keys, metric).toContain(`${stackMetricNamespace(prod.stack.stackName)}|${metric}|${dim}|${stat}`);
    }
    expect([...keys].some((k) => k.startsWith('AWS/Lambda|IteratorAge|FunctionName=@'))).toBe(true);
    expect([...keys].some((k) => k.startsWith('AWS/SQS|ApproximateNumberOfMessagesVisible|QueueName=@'))).toBe(true);
    expect(graphs.filter((g) => String(g.properties.title).startsWith(`${STREAM_CONSUMER.id}:`)).length).toBeGreaterThanOrEqual(4);
  });

  it('is named after the stack and the region (dashboard names are per account) and stays within CloudWatch’s limits', () => {
    const { name, body, lines, graphs } = dashboard(prod);
    expect(name).toEqual({ 'Fn::Join': ['', [`${prod.stack.stackName}-`, { Ref: 'AWS::Region' }]] });
    expect(body.widgets.length).toBeLessThanOrEqual(500);
    expect(lines.length).toBeLessThanOrEqual(2500);
    for (const g of graphs) expect((g.properties.metrics as unknown[]).length, g.properties.title).toBeLessThanOrEqual(500);
  });
});

describe('table maximum throughput', () => {
  it('caps on-demand reads and writes of the table and of each index: defaults and context', () => {
    for (const [s, read, write] of [
      [prod, 1000, 200],
      [custom, 300, 50],
    ] as const) {
      const [[, table]] = ofType(s.resources, 'AWS::DynamoDB::GlobalTable') as [[string, Resource]];
      const p = table.Properties;
      expect(p.BillingMode).toBe('PAY_PER_REQUEST');
      expect(p.WriteOnDemandThroughputSettings).toEqual({ MaxWriteRequestUnits: write });
      expect(p.Replicas).toHaveLength(1);
      expect(p.Replicas[0].ReadOnDemandThroughputSettings).toEqual({ MaxReadRequestUnits: read });
      const gsis = p.GlobalSecondaryIndexes as { IndexName: string; WriteOnDemandThroughputSettings: unknown }[];
      expect(gsis.map((g) => g.IndexName).sort()).toEqual([...INDEX_NAMES].sort());
      for (const g of gsis) expect(g.WriteOnDemandThroughputSettings, g.IndexName).toEqual({ MaxWriteRequestUnits: write });
      const replicaGsis = p.Replicas[0].GlobalSecondaryIndexes as { IndexName: string; ReadOnDemandThroughputSettings: unknown }[];
      expect(replicaGsis.map((g) => g.IndexName).sort()).toEqual([...INDEX_NAMES].sort());
      for (const g of replicaGsis) expect(g.ReadOnDemandThroughputSettings, g.IndexName).toEqual({ MaxReadRequestUnits: read });
    }
  });
});

describe('access log', () => {
  it('carries the integration request id, status and latency, so that a line finds its function log', () => {
    const [[, stage]] = ofType(prod.resources, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      integrationRequestId: '$context.integration.requestId',
      integrationStatus: '$context.integration.status',
      integrationLatency: '$context.integration.latency',
    });
  });
});

describe('context', () => {
  const settings = (context: Record<string, unknown>) => readSettings(new App({ context }).node);

  it('has the documented defaults', () => {
    expect(settings({})).toMatchObject({
      maxReadRequestUnits: 1000,
      maxWriteRequestUnits: 200,
      monitoring: {
        alarmEmail: undefined,
        periodMinutes: 5,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        serverErrorPercent: 5,
        latencyMs: 3000,
        fanOutLatencyMs: 15000,
        errorCount: 1,
        throttleCount: 1,
      },
    });
  });

  it.each([
    ['alarmEmail', 'not-an-address'],
    ['alarmEmail', 42],
    ['alarm5xxPercent', '0'],
    ['alarm5xxPercent', '101'],
    ['alarm5xxPercent', 'many'],
    ['alarmLatencyMs', '1.5'],
    ['alarmFanOutLatencyMs', '-1'],
    ['alarmPeriodMinutes', '0'],
    ['alarmEvaluationPeriods', 'three'],
    ['alarmErrorCount', '0'],
    ['alarmThrottleCount', 'x'],
    ['maxReadRequestUnits', '0'],
    ['maxReadRequestUnits', 'lots'],
    ['maxWriteRequestUnits', '2.5'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => settings({ [key]: value })).toThrow(new RegExp(`"${key}"`));
  });

  it('refuses more datapoints than periods, and more than a day of periods', () => {
    expect(() => settings({ alarmEvaluationPeriods: '3', alarmDatapointsToAlarm: '4' })).toThrow(/alarmDatapointsToAlarm/);
    expect(() => settings({ alarmPeriodMinutes: '60', alarmEvaluationPeriods: '25', alarmDatapointsToAlarm: '1' })).toThrow(/one day/);
    expect(settings({ alarmPeriodMinutes: '60', alarmEvaluationPeriods: '24', alarmDatapointsToAlarm: '24' }).monitoring).toMatchObject({
      periodMinutes: 60,
      evaluationPeriods: 24,
    });
  });

  it('fails the synth on a bad value', () => {
    expect(() => synth({ maxWriteRequestUnits: 'unlimited' })).toThrow(/maxWriteRequestUnits/);
  });
});

describe('CloudFormation and cdk-nag', () => {
  it('keeps every template within CloudFormation’s limits, each operation’s alarms beside its function', () => {
    for (const s of [prod, custom]) {
      expectWithinCloudFormationLimits(s);
      // The alarms are what would not fit next to the functions and routes of the parent.
      expect(ofType(s.template.toJSON().Resources as Resources, 'AWS::CloudWatch::Alarm')).toEqual([]);
      // Nor would a policy resource per function: their grants are their roles' inline policies.
      expect(ofType(s.resources, 'AWS::IAM::Policy')).toEqual([]);
      // An operation's Lambda alarms are in the template of its function, which they name directly.
      for (const [id, a] of ofType(s.resources, 'AWS::CloudWatch::Alarm')) {
        if (a.Properties.Namespace !== 'AWS/Lambda') continue;
        const fn = (a.Properties.Dimensions as [{ Value: { Ref: string } }])[0].Value.Ref;
        if (!OPERATIONS.some((op) => functionId(op.id) === fn)) continue;
        expect(templateOf(s, id), id).toBe(templateOf(s, fn));
        const local = s.templates.find((t) => t.path === templateOf(s, id))!.json.Resources[id];
        expect(local.Properties.Dimensions[0].Value, id).toEqual({ Ref: fn });
      }
    }
  });

  // cdk-nag walks every construct of three stacks: seconds alone, more on a loaded machine.
  it('leaves no unacknowledged cdk-nag finding, with or without the e-mail subscription', { timeout: 120_000 }, () => {
    expectNoNagFindings(prod);
    expectNoNagFindings(custom);
  });
});
