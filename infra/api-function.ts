// The one construct every API function is made with, so that runtime, memory, bundling, logging
// and permissions are decided in one place (cf. Powertools' examples/app).
import * as path from 'node:path';
import { Duration, RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE_TARGET, LAMBDA_RUNTIME, nodejsBundling, REPO_ROOT } from './bundling.js';
import { iamAction, INDEX_ACTIONS, type ScopedGrant, type TableAction } from '#lib/contract/grants.js';

export { REPO_ROOT } from './bundling.js';

/** The tag that marks this project's API functions (and names their operation). */
export const OPERATION_TAG = 'event-calendar:operation';

/** `events.getBySlug` -> `EventsGetBySlugFn`; also used as the function's CloudFormation logical id. */
export function functionId(operationId: string): string {
  const pascal = operationId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return `${pascal}Fn`;
}

/** `functions/root/noRoute.ts` -> `root.noRoute`: the id of a handler module that is not an operation. */
export function moduleId(handlerModule: string): string {
  return handlerModule
    .replace(/^functions\//, '')
    .replace(/\.[cm]?[jt]s$/, '')
    .split('/')
    .join('.');
}

export interface ApiFunctionProps {
  /** The operation id (or a module id for the fallback). */
  operationId: string;
  /** The handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  description: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** Default 10 s. */
  timeoutSeconds?: number;
}

/**
 * A role whose grants (ours and CDK's `grant*` methods) go into its own inline policy instead of a
 * separate AWS::IAM::Policy: the same statements in the same per-role policy size limit, one
 * CloudFormation resource fewer per function in its template. The statements are there when the role is created, so no
 * function can start before its permissions.
 */
class InlineGrantsRole extends iam.Role {
  private readonly inlineGrants: iam.PolicyDocument;

  constructor(scope: Construct, id: string, props: iam.RoleProps) {
    const grants = new iam.PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, grants } });
    this.inlineGrants = grants;
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, props: ApiFunctionProps) {
    const id = functionId(props.operationId);
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Logs are operational data, not records: they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // An own role instead of the default one with AWSLambdaBasicExecutionRole (an AWS managed
    // policy that may write to any log group): this function may write to its own log group only.
    this.role = new InlineGrantsRole(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.operationId} function of the Event Calendar API`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, props.handler),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      description: props.description.slice(0, 256),
      runtime: LAMBDA_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: nodejsBundling(),
    });

    // A stable logical id, derived from the operation id (`EventsGetBySlugFn`), so that reshaping
    // the construct tree never replaces a function.
    (this.function.node.defaultChild as lambda.CfnFunction).overrideLogicalId(id);
    Tags.of(this.function).add(OPERATION_TAG, props.operationId);

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        `The runtime is pinned to ${LAMBDA_RUNTIME.name} (infra/bundling.ts: esbuild target ${BUNDLE_TARGET}, and the bundle ` +
        'test runs every bundle on that Node): when aws-cdk-lib knows a newer one, moving to it is a deliberate change with its own tests, not an automatic one.',
    });
  }

  /**
   * Allows exactly these table actions (lib/contract/grants.ts), on the table and, for the actions that
   * address indexes, on its indexes: nothing the code does not use (no Scan, no streams, no
   * DescribeTable, no BatchWriteItem), which CDK's grantRead/WriteData would add.
   */
  allowTable(tableArnToken: string, actions: readonly TableAction[], scoped: readonly ScopedGrant[] = []): void {
    // Scoped grants reach only the items whose partition key has one of the prefixes.
    for (const grant of scoped) {
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: grant.actions.map(iamAction),
          resources: [tableArnToken],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': grant.keyPrefixes.map((p) => `${p}*`) } },
        }),
      );
    }
    if (actions.length === 0) return;
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: actions.map(iamAction), resources: [tableArnToken] }));
    const indexed = actions.filter((a) => INDEX_ACTIONS.includes(a));
    if (indexed.length === 0) return;
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: indexed.map(iamAction), resources: [`${tableArnToken}/index/*`] }));
    this.acknowledgeTableIndexes(tableArnToken);
  }

  /** Acknowledges the `<table>/index/*` resource of this function's policy. */
  private acknowledgeTableIndexes(tableArnToken: string): void {
    const stack = Stack.of(this);
    // cdk-nag names a GetAtt resource `<LogicalId.Arn>` and a parameter (the ARN a nested stack
    // receives) `<Name>`; resolve our token to find which.
    const resolved = stack.resolve(tableArnToken) as { 'Fn::GetAtt'?: [string, string]; Ref?: string };
    const getAtt = resolved['Fn::GetAtt'];
    const name = getAtt ? `${getAtt[0]}.${getAtt[1]}` : resolved.Ref;
    if (!name) throw new Error('Expected the table ARN to be a Fn::GetAtt or a parameter');
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${name}>/index/*]`,
      reason:
        "Queries cover the table's indexes (`<table>/index/*`): the handlers query the GSIs " +
        'of lib/store/table.ts (slug lookup and listings) and no other table is reachable through this ARN.',
    });
  }
}
