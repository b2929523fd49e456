// The background functions that run on a schedule (BACKGROUND_FUNCTIONS rows with `schedule`,
// lib/stream/functions.ts): each is a function with its table grants, invoked by an EventBridge
// rule at its rate, and watched by an alarm on its Lambda errors (a run that fails is tried again
// by EventBridge's retries, then waits for the next one).
import { Duration } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SCHEDULED_FUNCTIONS } from '#lib/stream/functions.js';
import { ApiFunction } from './api-function.js';

export interface SchedulesProps {
  table: dynamodb.TableV2;
  /** The functions' shared settings (table name, metric namespace, site). */
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
}

export class Schedules extends Construct {
  readonly functions = new Map<string, { fn: ApiFunction; rule: events.Rule }>();

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    for (const f of SCHEDULED_FUNCTIONS) {
      const fn = new ApiFunction(this, {
        operationId: f.id,
        handler: f.handler,
        description: `${f.id}: ${f.summary}`,
        environment: props.environment,
        logRetention: props.logRetention,
        timeoutSeconds: f.timeoutSeconds,
      });
      fn.allowTable(props.table.tableArn, f.tableActions, f.scopedGrants);
      const rule = new events.Rule(this, `${fn.node.id}Schedule`, {
        description: `Runs ${f.id} (${f.schedule})`,
        schedule: events.Schedule.expression(f.schedule),
        targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
      });
      this.functions.set(f.id, { fn, rule });
    }
  }

  /** Each scheduled function's Lambda errors, for its alarm. */
  errorMetrics(period: Duration): { id: string; metric: cloudwatch.IMetric }[] {
    return [...this.functions].map(([id, { fn }]) => ({ id, metric: fn.function.metricErrors({ period, statistic: 'Sum', label: 'Lambda errors' }) }));
  }
}
