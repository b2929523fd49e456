// One group of operations (infra/operation-groups.ts) in a nested stack of its own: each
// operation's function with its role and log group, its integration, its routes on the parent's
// HTTP API, the API's permission to invoke it, and its four alarms. The parent keeps what they
// share (API, table, secret, user pool, alarm topic), which reaches this stack as parameters:
// the table ARN explicitly (its IAM acknowledgement names it), the rest through CDK's references.
import { CfnParameter, NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { routePath, type Method } from '#lib/contract/operations.js';
import { ApiFunction } from './api-function.js';
import { acknowledgeGatewayAuthorization } from './gateway-authorization.js';
import type { AlarmFactory, MonitoredFunction } from './monitoring.js';
import type { OperationGroup } from './operation-groups.js';
import type { StackSettings } from './settings.js';

export interface OperationStackProps {
  group: OperationGroup;
  api: apigw.IHttpApi;
  tableArn: string;
  /** What every API function reads (table name, site, credentials' settings). */
  environment: Record<string, string>;
  passwordKey: secretsmanager.ISecret;
  settings: StackSettings;
  alarms: AlarmFactory;
}

/** `events2` -> `Events2Operations`: the nested stack's construct id (and its logical id's start). */
export const operationStackId = (groupId: string) => `${groupId[0]!.toUpperCase()}${groupId.slice(1)}Operations`;

export class OperationStack extends NestedStack {
  /** The group's functions, in the operation table's order. */
  readonly functions: MonitoredFunction[] = [];
  readonly group: OperationGroup;

  constructor(scope: Construct, props: OperationStackProps) {
    const { group, settings } = props;
    super(scope, operationStackId(group.id), { description: `Event Calendar API operations: ${group.id}`, parameters: { TableArn: props.tableArn } });
    this.group = group;
    // The routes here are the API's: the same reasons hold for them.
    acknowledgeGatewayAuthorization(this, settings);
    const tableArn = new CfnParameter(this, 'TableArn', { description: "The table's ARN" }).valueAsString;
    for (const op of group.operations) {
      const fn = new ApiFunction(this, {
        operationId: op.id,
        handler: op.handler,
        description: `${op.id}: ${op.summary}`,
        environment: props.environment,
        logRetention: settings.logRetention,
        timeoutSeconds: op.timeoutSeconds,
      });
      fn.allowTable(tableArn, op.tableActions, op.scopedGrants);
      // Every operation checks HTTP Basic credentials, whose hashes are keyed with this secret.
      props.passwordKey.grantRead(fn.role);

      // One invoke permission per function, scoped to this API, rather than one per route (and
      // method): a function's routes all reach it.
      const integration = new HttpLambdaIntegration('Integration', fn.function, { scopePermissionToRoute: false });
      const methods = new Set<Method | 'HEAD'>(op.methods);
      // HTTP APIs do not answer HEAD for GET routes by themselves; the pipeline drops the body.
      if (methods.has('GET')) methods.add('HEAD');
      const path = routePath(op, settings.namespace);
      for (const method of methods) {
        new apigw.HttpRoute(fn, `${method}Route`, { httpApi: props.api, routeKey: apigw.HttpRouteKey.with(path, apigw.HttpMethod[method]), integration });
      }
      const monitored: MonitoredFunction = { operation: op.id, fn, fansOut: op.fansOut };
      props.alarms.functionAlarms(this, monitored);
      this.functions.push(monitored);
    }
  }
}
