// The synthesized CloudFormation template, checked against the single sources of truth
// (lib/operations.ts, lib/table.ts, lib/auth.ts) rather than against a snapshot.
import fs from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATION_TAG, REPO_ROOT, functionId, moduleId } from '../../infra/api-function.js';
import { buildApp } from '../../infra/app.js';
import { CONTEXT_KEYS } from '../../infra/settings.js';
import type { EventCalendarStack } from '../../infra/stack.js';
import { ROLES } from '../../lib/auth.js';
import { encode, json } from '../../lib/http.js';
import { FALLBACK_HANDLER, OPERATIONS, routePath } from '../../lib/operations.js';
import { INDEXES, KEY, type IndexDefinition } from '../../lib/table.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Resources = Record<string, Resource>;

interface Synth {
  app: App;
  stack: EventCalendarStack;
  template: Template;
  resources: Resources;
}

const cdkJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };

/**
 * Builds the app exactly as infra/app.ts does (cdk.json context, cdk-nag), without bundling.
 * NodejsFunction still insists that its entry file exists even when bundling is skipped; the
 * handler modules belong to functions/, so a missing one is reported as present while the
 * stack is constructed (and only then): these tests are about the infrastructure.
 */
function synth(context: Record<string, unknown> = {}): Synth {
  const entries = new Set([...OPERATIONS.map((op) => op.handler), FALLBACK_HANDLER].map((h) => path.join(REPO_ROOT, h)));
  const realExists = fs.existsSync;
  const spy = vi.spyOn(fs, 'existsSync').mockImplementation((p) => entries.has(String(p)) || realExists(p));
  let built: { app: App; stack: EventCalendarStack };
  try {
    built = buildApp(new App({ context: { ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [] } }));
  } finally {
    spy.mockRestore();
  }
  const template = Template.fromStack(built.stack);
  return { ...built, template, resources: template.toJSON().Resources as Resources };
}

const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** Our API functions: tagged with their operation (CDK helper functions carry no such tag). */
function apiFunctions(resources: Resources): Map<string, [string, Resource]> {
  const out = new Map<string, [string, Resource]>();
  for (const [id, r] of ofType(resources, 'AWS::Lambda::Function')) {
    const tag = (r.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === OPERATION_TAG);
    if (tag) out.set(tag.Value, [id, r]);
  }
  return out;
}

/** Every IAM action a function's role is allowed, from its inline policies and attached ones. */
function roleActions(resources: Resources, fn: Resource): { actions: Set<string>; managed: unknown[] } {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const actions = new Set<string>();
  for (const [, policy] of ofType(resources, 'AWS::IAM::Policy')) {
    const roles = policy.Properties.Roles as { Ref: string }[];
    if (!roles.some((r) => r.Ref === roleId)) continue;
    for (const st of policy.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[] }[]) {
      if (st.Effect === 'Allow') for (const a of [st.Action].flat()) actions.add(a);
    }
  }
  return { actions, managed: (resources[roleId]!.Properties.ManagedPolicyArns as unknown[] | undefined) ?? [] };
}

/** Every Allow statement of a function's role. */
function roleStatements(resources: Resources, fn: Resource): { Action: string | string[]; Resource: unknown }[] {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return ofType(resources, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[])
    .filter((st) => st.Effect === 'Allow');
}

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:DeleteTable',
  'dynamodb:UpdateTable',
  'dynamodb:*',
];

function expectedRouteKeys(namespace: string): string[] {
  const keys = ['$default'];
  for (const op of OPERATIONS) {
    for (const m of op.methods) keys.push(`${m} ${routePath(op, namespace)}`);
    if (op.methods.includes('GET')) keys.push(`HEAD ${routePath(op, namespace)}`);
  }
  return keys;
}

/** The function (logical id) behind each route key. */
function routeTargets(resources: Resources): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, route] of ofType(resources, 'AWS::ApiGatewayV2::Route')) {
    const join = route.Properties.Target['Fn::Join'][1] as [string, { Ref: string }];
    const integration = resources[join[1].Ref]!;
    out.set(route.Properties.RouteKey, integration.Properties.IntegrationUri['Fn::GetAtt'][0]);
  }
  return out;
}

function expectNoNagFindings(s: Synth): void {
  // cdk-nag 3 reports through CDK's policy validation, not through annotations: ask the pack
  // directly for what is left after acknowledgements, warnings included.
  const report = new AwsSolutionsChecks(s.app).validateScope(s.app);
  const findings = report.violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
  expect(findings).toEqual([]);
  // Nor any error annotation from CDK itself (or from a v2-style nag, should it come back).
  expect(Annotations.fromStack(s.stack).findError('*', Match.anyValue())).toEqual([]);
  expect(Annotations.fromStack(s.stack).findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
}

let prod: Synth;
let dev: Synth;
let custom: Synth;
/** A development deployment with the stricter Cognito options. */
const DEV = { dev: 'true', mfa: 'required', threatProtection: 'true' };
/** Every other setting changed, with an external token issuer. */
const CUSTOM = {
  namespace: 'calendar',
  siteUrl: 'https://events.example.org/',
  siteTimezone: 'Europe/Vilnius',
  logRetentionDays: '7',
  throttleRate: '10',
  throttleBurst: '20',
  authIssuer: 'https://issuer.example.org',
  authAudience: 'event-calendar',
  authJwksUri: 'https://issuer.example.org/keys',
  authGroupsClaim: 'groups',
};

beforeAll(() => {
  prod = synth();
  dev = synth(DEV);
  custom = synth(CUSTOM);
}, 120_000);

afterAll(() => vi.restoreAllMocks());

describe('functions', () => {
  it('makes exactly one function per operation, plus the fallback', () => {
    const fns = apiFunctions(prod.resources);
    const fallbackId = moduleId(FALLBACK_HANDLER);
    expect([...fns.keys()].sort()).toEqual([...OPERATIONS.map((op) => op.id), fallbackId].sort());
    // No other function sneaks in (a log-retention or custom-resource helper would show up here).
    expect(ofType(prod.resources, 'AWS::Lambda::Function')).toHaveLength(OPERATIONS.length + 1);
    for (const [opId, [logicalId]] of fns) expect(logicalId).toBe(functionId(opId));
    expect(functionId('events.getBySlug')).toBe('EventsGetBySlugFn');
  });

  it('runs every function on nodejs22.x, arm64, 512 MB, 10 s (29 s when it rewrites linked events), with source maps', () => {
    const slow = new Set(OPERATIONS.filter((op) => op.fansOut).map((op) => op.id));
    expect([...slow].sort()).toEqual([
      'categories.delete', 'organizers.delete', 'organizers.deleteBySlug', 'organizers.update', 'organizers.updateBySlug',
      'tags.delete', 'venues.delete', 'venues.deleteBySlug', 'venues.update', 'venues.updateBySlug',
    ]);
    for (const [opId, [, fn]] of apiFunctions(prod.resources)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: slow.has(opId) ? 29 : 10,
        Handler: 'index.handler',
      });
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
    }
  });

  it('gives every function its settings and the Cognito pool by default', () => {
    const [, fn] = apiFunctions(prod.resources).get('events.list')!;
    const table = ofType(prod.resources, 'AWS::DynamoDB::GlobalTable')[0]![0];
    const pool = ofType(prod.resources, 'AWS::Cognito::UserPool')[0]![0];
    const client = ofType(prod.resources, 'AWS::Cognito::UserPoolClient')[0]![0];
    const api = ofType(prod.resources, 'AWS::ApiGatewayV2::Api')[0]![0];
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: table },
      API_NAMESPACE: 'tribe',
      SITE_URL: { 'Fn::GetAtt': [api, 'ApiEndpoint'] },
      SITE_TIMEZONE: 'UTC',
      COGNITO_USER_POOL_ID: { Ref: pool },
      COGNITO_CLIENT_ID: { Ref: client },
      NODE_OPTIONS: '--enable-source-maps',
    });
  });

  it('takes settings and an external issuer from context', () => {
    for (const [, [, fn]] of apiFunctions(custom.resources)) {
      const env = fn.Properties.Environment.Variables;
      expect(env).toMatchObject({
        API_NAMESPACE: 'calendar',
        SITE_URL: 'https://events.example.org',
        SITE_TIMEZONE: 'Europe/Vilnius',
        AUTH_ISSUER: 'https://issuer.example.org',
        AUTH_AUDIENCE: 'event-calendar',
        AUTH_JWKS_URI: 'https://issuer.example.org/keys',
        AUTH_GROUPS_CLAIM: 'groups',
      });
      expect(env).not.toHaveProperty('COGNITO_USER_POOL_ID');
      expect(env).not.toHaveProperty('COGNITO_CLIENT_ID');
    }
  });

  it('gives every function its own log group with a retention', () => {
    for (const [s, days] of [
      [prod, 30],
      [custom, 7],
    ] as const) {
      const groups = new Set<string>();
      for (const [, [, fn]] of apiFunctions(s.resources)) {
        const groupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
        const group = s.resources[groupId]!;
        expect(group.Type).toBe('AWS::Logs::LogGroup');
        expect(group.Properties.RetentionInDays).toBe(days);
        groups.add(groupId);
      }
      expect(groups.size).toBe(OPERATIONS.length + 1);
    }
  });
});

describe('permissions', () => {
  it('gives each function exactly the table actions its operation lists, and the indexes only to Query', () => {
    const fns = apiFunctions(prod.resources);
    const reads = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
    const writes = [...reads, 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].sort();
    for (const op of OPERATIONS) {
      const { actions, managed } = roleActions(prod.resources, fns.get(op.id)![1]);
      const table = [...actions].filter((a) => a.startsWith('dynamodb:')).sort();
      const expected = op.id.startsWith('root.') ? [] : op.access === 'read' ? reads : writes;
      expect(table, op.id).toEqual(expected);
      expect(table, op.id).toEqual(op.tableActions.map((a) => `dynamodb:${a}`).sort());
      // Only Query reaches `<table>/index/*`.
      for (const st of roleStatements(prod.resources, fns.get(op.id)![1])) {
        const onIndex = JSON.stringify(st.Resource).includes('/index/*');
        if (onIndex) expect(st.Action, op.id).toEqual('dynamodb:Query');
      }
      // Logging goes to the function's own log group, not through an AWS managed policy.
      expect(actions, op.id).toContain('logs:PutLogEvents');
      expect(managed, op.id).toEqual([]);
    }
    // What the code never uses is never granted.
    for (const [, [, fn]] of fns) {
      const { actions } = roleActions(prod.resources, fn);
      for (const never of ['dynamodb:Scan', 'dynamodb:DescribeTable', 'dynamodb:BatchWriteItem', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream', 'dynamodb:ListStreams'])
        expect(actions).not.toContain(never);
    }
  });

  it('lets read operations read but never write', () => {
    const fns = apiFunctions(prod.resources);
    for (const op of OPERATIONS.filter((o) => o.access === 'read')) {
      const { actions } = roleActions(prod.resources, fns.get(op.id)![1]);
      expect(WRITE_ACTIONS.filter((a) => actions.has(a)), op.id).toEqual([]);
    }
  });

  it('gives the fallback no table access at all', () => {
    const [, fn] = apiFunctions(prod.resources).get(moduleId(FALLBACK_HANDLER))!;
    const { actions } = roleActions(prod.resources, fn);
    expect([...actions].filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('lets API Gateway invoke every function', () => {
    const permitted = new Set(
      ofType(prod.resources, 'AWS::Lambda::Permission')
        .filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com')
        .map(([, p]) => p.Properties.FunctionName['Fn::GetAtt'][0] as string),
    );
    for (const [, [id]] of apiFunctions(prod.resources)) expect(permitted).toContain(id);
  });
});

describe('routes', () => {
  it('routes every method of every operation, HEAD for each GET, and $default', () => {
    for (const [s, ns] of [
      [prod, 'tribe'],
      [custom, 'calendar'],
    ] as const) {
      const keys = ofType(s.resources, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
      expect(keys.sort()).toEqual(expectedRouteKeys(ns).sort());
    }
    expect(expectedRouteKeys('tribe')).toContain('GET /{lang}/tribe/events/v1/events/by-slug/{slug}');
    expect(expectedRouteKeys('tribe')).toContain('HEAD /{lang}/tribe/events/v1/events');
  });

  it('sends each route to its operation’s function and $default to the fallback', () => {
    const targets = routeTargets(prod.resources);
    for (const op of OPERATIONS) {
      for (const m of [...op.methods, ...(op.methods.includes('GET') ? ['HEAD'] : [])]) {
        expect(targets.get(`${m} ${routePath(op, 'tribe')}`), `${m} ${op.id}`).toBe(functionId(op.id));
      }
    }
    expect(targets.get('$default')).toBe(functionId(moduleId(FALLBACK_HANDLER)));
  });

  it('leaves CORS to the handlers, so that every answer carries the WordPress headers', () => {
    // A CorsConfiguration would make API Gateway answer preflights itself and replace the
    // handlers' headers; OPTIONS requests go to the fallback through $default instead.
    const [[, api]] = ofType(prod.resources, 'AWS::ApiGatewayV2::Api') as [[string, Resource]];
    expect(api.Properties.CorsConfiguration).toBeUndefined();
    const keys = ofType(prod.resources, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    expect(keys.filter((k) => k.startsWith('OPTIONS') || k.startsWith('ANY'))).toEqual([]);
    const headers = encode(json(200, {}), {}, { headers: { origin: 'https://site.example' }, requestContext: { http: { method: 'GET' } } } as never).headers ?? {};
    expect(headers).toMatchObject({
      'access-control-allow-origin': 'https://site.example',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages',
      vary: 'Origin',
    });
  });

  it('logs access as JSON and throttles the default stage', () => {
    for (const [s, rate, burst, days] of [
      [prod, 50, 100, 30],
      [custom, 10, 20, 7],
    ] as const) {
      const stages = ofType(s.resources, 'AWS::ApiGatewayV2::Stage');
      expect(stages).toHaveLength(1);
      const stage = stages[0]![1].Properties;
      expect(stage).toMatchObject({
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst },
      });
      const group = s.resources[stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]]!;
      expect(group.Type).toBe('AWS::Logs::LogGroup');
      expect(group.Properties.RetentionInDays).toBe(days);
      const format = JSON.parse(stage.AccessLogSettings.Format) as Record<string, string>;
      expect(Object.keys(format).sort()).toEqual(
        ['requestId', 'ip', 'requestTime', 'httpMethod', 'routeKey', 'status', 'protocol', 'responseLength', 'integrationError'].sort(),
      );
      expect(format.requestId).toBe('$context.requestId');
    }
  });
});

describe('table', () => {
  it('is built from lib/table.ts: keys, attributes, GSIs and projections', () => {
    const [[, table]] = ofType(prod.resources, 'AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    const p = table.Properties;
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.KeySchema).toEqual([
      { AttributeName: KEY.pk, KeyType: 'HASH' },
      { AttributeName: KEY.sk, KeyType: 'RANGE' },
    ]);
    for (const a of p.AttributeDefinitions as { AttributeType: string }[]) expect(a.AttributeType).toBe('S');
    const expected = Object.values(INDEXES).map((i: IndexDefinition) => ({
      IndexName: i.indexName,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' },
        ...(i.sortKey ? [{ AttributeName: i.sortKey, KeyType: 'RANGE' }] : []),
      ],
      Projection:
        typeof i.projection === 'string'
          ? { ProjectionType: i.projection }
          : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...i.projection] },
    }));
    expect(p.GlobalSecondaryIndexes).toEqual(expected);
    const keyNames = new Set([KEY.pk, KEY.sk, ...Object.values(INDEXES).flatMap((i: IndexDefinition) => [i.partitionKey, i.sortKey ?? []].flat())]);
    expect(new Set((p.AttributeDefinitions as { AttributeName: string }[]).map((a) => a.AttributeName))).toEqual(keyNames);
  });

  it('has point-in-time recovery, deletion protection and Retain by default', () => {
    const [[, table]] = ofType(prod.resources, 'AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.Replicas[0]).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('relaxes deletion protection and Retain with dev=true, but keeps PITR', () => {
    const [[, table]] = ofType(dev.resources, 'AWS::DynamoDB::GlobalTable') as [[string, Resource]];
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.Replicas[0]).toMatchObject({
      DeletionProtectionEnabled: false,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });
});

describe('authentication', () => {
  it('makes a user pool with the role groups and a public client by default', () => {
    const pools = ofType(prod.resources, 'AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    const [poolId, pool] = pools[0]!;
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      DeletionProtection: 'ACTIVE',
      Policies: { PasswordPolicy: { RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
    });
    expect(pool.Properties.Policies.PasswordPolicy.MinimumLength).toBeGreaterThanOrEqual(8);

    const groups = ofType(prod.resources, 'AWS::Cognito::UserPoolGroup');
    expect(groups.map(([, g]) => g.Properties.GroupName).sort()).toEqual([...ROLES].sort());
    expect(['editor', 'author', 'contributor'].sort()).toEqual([...ROLES].sort());
    for (const [, g] of groups) expect(g.Properties.UserPoolId).toEqual({ Ref: poolId });

    const clients = ofType(prod.resources, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    expect(clients[0]![1].Properties).toMatchObject({ UserPoolId: { Ref: poolId }, GenerateSecret: false });
    expect(clients[0]![1].Properties.ExplicitAuthFlows).toEqual(expect.arrayContaining(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']));
  });

  it('lets a dev pool go with the stack, and honours mfa=required and threatProtection=true', () => {
    const [[, pool]] = ofType(dev.resources, 'AWS::Cognito::UserPool') as [[string, Resource]];
    expect(pool.DeletionPolicy).toBe('Delete');
    expect(pool.Properties).toMatchObject({
      DeletionProtection: 'INACTIVE',
      MfaConfiguration: 'ON',
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
  });

  it('makes no user pool when an issuer is configured', () => {
    for (const type of ['AWS::Cognito::UserPool', 'AWS::Cognito::UserPoolGroup', 'AWS::Cognito::UserPoolClient']) {
      expect(ofType(custom.resources, type), type).toEqual([]);
    }
  });
});

describe('outputs', () => {
  it('reads only context keys the stack knows (cdk.json has no typo)', () => {
    expect(Object.keys(cdkJson.context ?? {}).filter((k) => !k.startsWith('@aws-cdk/') && !(CONTEXT_KEYS as readonly string[]).includes(k))).toEqual([]);
  });

  it('publishes the API URL, the table and the user pool', () => {
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs).sort()).toEqual(['ApiUrl', 'TableName', 'UserPoolClientId', 'UserPoolId']);
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain('/en/tribe/events/v1/');
    const customOutputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(customOutputs).sort()).toEqual(['ApiUrl', 'TableName']);
    expect(JSON.stringify(customOutputs.ApiUrl!.Value)).toContain('/en/calendar/events/v1/');
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('leaves no unacknowledged error or warning, by default and with every option', () => {
    expectNoNagFindings(prod);
    expectNoNagFindings(dev);
    expectNoNagFindings(custom);
  });

  it('gives every acknowledgement a reason', () => {
    const acks: [string, string][] = [];
    for (const c of prod.app.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) acks.push([id, reason]);
      }
    }
    expect(acks.length).toBeGreaterThan(0);
    for (const [id, reason] of acks) expect(reason.length, id).toBeGreaterThan(40);
  });

  it('does report findings (the check is not vacuous)', () => {
    const app = new App();
    const stack = new Stack(app, 'Bad');
    // Our functions' runtime and role, minus the acknowledgement and the own role.
    new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('export const handler = async () => ({});') });
    const report = new AwsSolutionsChecks(app).validateScope(app);
    const rules = report.violations.map((v) => v.ruleName);
    expect(rules).toContain('AwsSolutions-L1');
    expect(rules.some((r) => r.startsWith('AwsSolutions-IAM4'))).toBe(true);
  });
});
