// The synthesized CloudFormation template, checked against the single sources of truth
// (lib/contract/operations.ts, lib/store/table.ts, lib/auth/tokens.ts) rather than against a snapshot.
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATION_TAG, functionId, moduleId } from '../../infra/api-function.js';
import { CONTEXT_KEYS } from '../../infra/settings.js';
import { ROLES } from '#lib/contract/principal.js';
import { encode } from '#lib/http/codec.js';
import { json } from '#lib/contract/reply.js';
import { FALLBACK_HANDLER, OPERATIONS, operation, prefixedPath, routePath } from '#lib/contract/operations.js';
import { STREAM_FILTER_PATTERN } from '#lib/stream/decode.js';
import { BACKGROUND_FUNCTIONS, SCHEDULED_FUNCTIONS, SERIES_HORIZON, STREAM_BATCH_SIZE, STREAM_CONSUMER, WEBHOOK_SENDER } from '#lib/stream/functions.js';
import { MAX_RECEIVE_COUNT, MAX_VISIBILITY_SECONDS, RETRY_SCHEDULE_S } from '#lib/stream/webhook-queue.js';
import { INDEXES, KEY, TTL_ATTRIBUTE, type IndexDefinition } from '#lib/store/table.js';
import { STREAM_MAX_RECORD_AGE, STREAM_RETRY_ATTEMPTS } from '../../infra/stream.js';
import { cdkJson, expectNoNagFindings, expectWithinCloudFormationLimits, ofType, synth, type Resource, type Resources, type Synth } from '../support/synth.js';
import { operationGroups } from '../../infra/operation-groups.js';
import { operationStackId } from '../../infra/operation-stack.js';

const BACKGROUND_IDS = new Set(BACKGROUND_FUNCTIONS.map((f) => f.id));
/** Lambda's runtime for every function (infra/bundling.ts). */
const RUNTIME = 'nodejs24.x';

/**
 * Our functions: tagged with their operation or function id (CDK helper functions carry no such
 * tag). `api` leaves out the functions that are not behind the API (lib/stream/functions.ts).
 */
function apiFunctions(resources: Resources, which: 'api' | 'all' = 'api'): Map<string, [string, Resource]> {
  const out = new Map<string, [string, Resource]>();
  for (const [id, r] of ofType(resources, 'AWS::Lambda::Function')) {
    const tag = (r.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === OPERATION_TAG);
    if (tag && (which === 'all' || !BACKGROUND_IDS.has(tag.Value))) out.set(tag.Value, [id, r]);
  }
  return out;
}

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, any> };

/** Every statement of a function's role: its inline policies and the AWS::IAM::Policy resources attached to it. */
function policyStatements(resources: Resources, fn: Resource): Statement[] {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const inline = ((resources[roleId]!.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []).map((p) => p.PolicyDocument);
  const attached = ofType(resources, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .map(([, p]) => p.Properties.PolicyDocument as { Statement: Statement[] });
  return [...inline, ...attached].flatMap((d) => d.Statement);
}

/**
 * Every IAM action a function's role is allowed without conditions, from its inline policies and
 * attached ones (statements scoped by a condition are read by roleStatements).
 */
function roleActions(resources: Resources, fn: Resource): { actions: Set<string>; managed: unknown[] } {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const actions = new Set<string>();
  for (const st of policyStatements(resources, fn)) if (st.Effect === 'Allow' && !st.Condition) for (const a of [st.Action].flat()) actions.add(a);
  return { actions, managed: (resources[roleId]!.Properties.ManagedPolicyArns as unknown[] | undefined) ?? [] };
}

/** Every Allow statement of a function's role. */
function roleStatements(resources: Resources, fn: Resource): Statement[] {
  return policyStatements(resources, fn).filter((st) => st.Effect === 'Allow');
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

/**
 * The route key API Gateway picks for a request, from a template's route keys: the method's
 * routes whose segments match (`{name}` any one non-empty segment, one trailing slash ignored),
 * the most specific first (a literal segment beats a variable, from the left), else `$default`.
 * The query string plays no part.
 */
function gatewayRoute(keys: string[], method: string, target: string): string {
  const path = target.split('?')[0]!.replace(/(.)\/$/, '$1');
  const segments = path.split('/');
  const candidates = keys
    .filter((k) => k.startsWith(`${method} `))
    .map((k) => ({ key: k, segments: k.slice(method.length + 1).split('/') }))
    .filter((r) => r.segments.length === segments.length && r.segments.every((seg, i) => (/^\{\w+\}$/.test(seg) ? segments[i] !== '' : seg === segments[i])));
  const rank = (r: { segments: string[] }) => r.segments.map((seg) => (seg.startsWith('{') ? '1' : '0')).join('');
  candidates.sort((a, b) => rank(a).localeCompare(rank(b)));
  return candidates[0]?.key ?? '$default';
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
  defaultLanguage: 'lt',
  siteName: 'Vilnius events',
  siteDescription: 'What is on',
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
  it('makes exactly one function per operation, plus the fallback, the stream consumer, the webhook sender and the scheduled functions', () => {
    const fns = apiFunctions(prod.resources, 'all');
    const fallbackId = moduleId(FALLBACK_HANDLER);
    expect([...fns.keys()].sort()).toEqual([...OPERATIONS.map((op) => op.id), fallbackId, ...BACKGROUND_IDS].sort());
    expect([...BACKGROUND_IDS]).toEqual(['stream.consumer', 'webhooks.sender', 'series.horizon']);
    // No other function sneaks in (a log-retention or custom-resource helper would show up here).
    expect(ofType(prod.resources, 'AWS::Lambda::Function')).toHaveLength(OPERATIONS.length + 1 + BACKGROUND_IDS.size);
    for (const [opId, [logicalId]] of fns) expect(logicalId).toBe(functionId(opId));
    expect(functionId('events.getBySlug')).toBe('EventsGetBySlugFn');
  });

  it('runs every function on nodejs24.x, arm64, 512 MB, 10 s (the consumer rewrites linked events, not the requests), with source maps', () => {
    const slow = new Set(OPERATIONS.filter((op) => op.fansOut).map((op) => op.id));
    expect([...slow].sort()).toEqual([
      'categories.delete',
      'organizers.delete',
      'organizers.deleteBySlug',
      'organizers.update',
      'organizers.updateBySlug',
      'tags.delete',
      'tecOrganizers.delete',
      'tecOrganizers.update',
      'tecVenues.delete',
      'tecVenues.update',
      'venues.delete',
      'venues.deleteBySlug',
      'venues.update',
      'venues.updateBySlug',
      'wpCategories.delete',
      'wpTags.delete',
    ]);
    for (const [, [, fn]] of apiFunctions(prod.resources)) {
      expect(fn.Properties).toMatchObject({
        Runtime: RUNTIME,
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: 10,
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
    const secret = ofType(prod.resources, 'AWS::SecretsManager::Secret')[0]![0];
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: table },
      APP_PASSWORD_SECRET_ARN: { Ref: secret },
      // Per stack, so that two stacks in one account keep their metrics and alarms apart.
      POWERTOOLS_METRICS_NAMESPACE: `EventCalendar/${prod.stack.stackName}`,
      API_NAMESPACE: 'tribe',
      SITE_URL: { 'Fn::GetAtt': [api, 'ApiEndpoint'] },
      SITE_TIMEZONE: 'UTC',
      DEFAULT_LANGUAGE: 'en',
      CACHE_MAX_AGE: '5',
      CACHE_STALE_WHILE_REVALIDATE: '10',
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
        DEFAULT_LANGUAGE: 'lt',
        SITE_NAME: 'Vilnius events',
        SITE_DESCRIPTION: 'What is on',
        AUTH_ISSUER: 'https://issuer.example.org',
        AUTH_AUDIENCE: 'event-calendar',
        AUTH_JWKS_URI: 'https://issuer.example.org/keys',
        AUTH_GROUPS_CLAIM: 'groups',
      });
      expect(env).not.toHaveProperty('COGNITO_USER_POOL_ID');
      expect(env).not.toHaveProperty('COGNITO_CLIENT_ID');
    }
    expect(() => synth({ defaultLanguage: 'de' })).toThrow(/defaultLanguage/);
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
      const [, consumer] = apiFunctions(s.resources, 'all').get(STREAM_CONSUMER.id)!;
      expect(groups.has(consumer.Properties.LoggingConfig.LogGroup.Ref)).toBe(false);
      expect(s.resources[consumer.Properties.LoggingConfig.LogGroup.Ref]!.Properties.RetentionInDays).toBe(days);
    }
  });
});

describe('nested stacks', () => {
  /** The template (construct path) holding a logical id. */
  const templateOf = (s: Synth, logicalId: string) => s.templates.find((t) => t.json.Resources[logicalId])?.path;

  it("puts each operation's function, role, log group, integration, routes and invoke permission in its group's nested stack", () => {
    for (const s of [prod, custom]) {
      const groups = operationGroups(OPERATIONS);
      expect(s.templates.map((t) => t.path).sort()).toEqual(
        [s.stack.node.path, s.stack.monitoring.node.path, ...groups.map((g) => `${s.stack.node.path}/${operationStackId(g.id)}`)].sort(),
      );
      const fns = apiFunctions(s.resources);
      const targets = routeTargets(s.resources);
      for (const g of groups) {
        const path = `${s.stack.node.path}/${operationStackId(g.id)}`;
        const local = s.templates.find((t) => t.path === path)!.json.Resources as Resources;
        for (const op of g.operations) {
          const [fnId, fn] = fns.get(op.id)!;
          expect(templateOf(s, fnId), op.id).toBe(path);
          expect(templateOf(s, (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]), op.id).toBe(path);
          expect(templateOf(s, fn.Properties.LoggingConfig.LogGroup.Ref), op.id).toBe(path);
          // Routes and integrations name the function in their own template.
          const routes = ofType(local, 'AWS::ApiGatewayV2::Route').filter(([id]) => targets.get(s.resources[id]!.Properties.RouteKey) === fnId);
          expect(routes.length, op.id).toBe(op.methods.length + (op.methods.includes('GET') ? 1 : 0));
          const permissions = ofType(local, 'AWS::Lambda::Permission').filter(([, p]) => p.Properties.FunctionName['Fn::GetAtt']?.[0] === fnId);
          expect(permissions, op.id).toHaveLength(1);
        }
        for (const [, i] of ofType(local, 'AWS::ApiGatewayV2::Integration')) expect(local[i.Properties.IntegrationUri['Fn::GetAtt'][0]]?.Type).toBe('AWS::Lambda::Function');
      }
    }
  });

  it('keeps the shared parts in the parent: API, stage, table, secret, user pool, stream consumer, bus, webhook queues and sender, scheduled functions, fallback and dashboard', () => {
    const root = prod.template.toJSON().Resources as Resources;
    for (const type of [
      'AWS::ApiGatewayV2::Api',
      'AWS::ApiGatewayV2::Stage',
      'AWS::DynamoDB::GlobalTable',
      'AWS::SecretsManager::Secret',
      'AWS::Cognito::UserPool',
      'AWS::Events::EventBus',
      'AWS::CloudWatch::Dashboard',
    ]) {
      expect(ofType(root, type), type).toHaveLength(1);
    }
    // The stream's dead letters; the webhook queue and its dead letters.
    expect(ofType(root, 'AWS::SQS::Queue')).toHaveLength(3);
    // The table stream's and the webhook queue's.
    expect(ofType(root, 'AWS::Lambda::EventSourceMapping')).toHaveLength(2);
    const rootFunctions = ofType(root, 'AWS::Lambda::Function').map(([id]) => id);
    expect(rootFunctions.sort()).toEqual(
      [functionId(moduleId(FALLBACK_HANDLER)), functionId(STREAM_CONSUMER.id), functionId(WEBHOOK_SENDER.id), functionId(SERIES_HORIZON.id)].sort(),
    );
    expect(ofType(root, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey)).toEqual(['$default']);
    // Each nested stack of operations receives the table's ARN as its parameter TableArn.
    const tableId = ofType(root, 'AWS::DynamoDB::GlobalTable')[0]![0];
    const nested = ofType(root, 'AWS::CloudFormation::Stack').filter(([id]) => !id.startsWith('Monitoring'));
    expect(nested).toHaveLength(operationGroups(OPERATIONS).length);
    for (const [id, n] of nested) expect(n.Properties.Parameters.TableArn, id).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
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
      // The indexes and documents of the namespaces read no record.
      const expected = op.id.startsWith('root.') || op.id.startsWith('tecV1.') ? [] : op.access === 'read' ? reads : writes;
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
      for (const never of [
        'dynamodb:Scan',
        'dynamodb:DescribeTable',
        'dynamodb:BatchWriteItem',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:DescribeStream',
        'dynamodb:ListStreams',
      ])
        expect(actions).not.toContain(never);
    }
  });

  it('lets read operations read but never write (beyond their scoped grants)', () => {
    const fns = apiFunctions(prod.resources);
    for (const op of OPERATIONS.filter((o) => o.access === 'read')) {
      const { actions } = roleActions(prod.resources, fns.get(op.id)![1]);
      expect(
        WRITE_ACTIONS.filter((a) => actions.has(a)),
        op.id,
      ).toEqual([]);
    }
  });

  it('grants sign-in data by partition only (dynamodb:LeadingKeys), as each operation lists it', () => {
    const fns = apiFunctions(prod.resources);
    const table = prod.template.toJSON().Resources;
    const tableId = Object.keys(table).find((k) => table[k].Type === 'AWS::DynamoDB::GlobalTable')!;
    for (const op of OPERATIONS) {
      const scoped = roleStatements(prod.resources, fns.get(op.id)![1]).filter((st) => st.Condition);
      const shown = scoped.map((st) => ({ actions: [st.Action].flat().sort(), prefixes: st.Condition!['ForAllValues:StringLike']['dynamodb:LeadingKeys'], resource: st.Resource }));
      expect(shown, op.id).toEqual(
        op.scopedGrants.map((g) => ({
          actions: g.actions.map((a) => `dynamodb:${a}`).sort(),
          prefixes: g.keyPrefixes.map((p) => `${p}*`),
          resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        })),
      );
    }
    // Reads may update credential records, never anything else; the root's functions read sign-in data only.
    expect(operation('events.list').scopedGrants).toEqual([{ actions: ['UpdateItem'], keyPrefixes: ['CRED#'] }]);
    expect(
      operation('root.index')
        .scopedGrants.flatMap((g) => g.keyPrefixes)
        .sort(),
    ).toEqual(['CRED#', 'LOGIN#', 'CRED#'].sort());
  });

  it("keys the password hashes with a retained secret that every operation's function, and only those, may read", () => {
    const [secretId, secret] = ofType(prod.resources, 'AWS::SecretsManager::Secret')[0]!;
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const fns = apiFunctions(prod.resources);
    for (const op of OPERATIONS) {
      const fn = fns.get(op.id)![1];
      expect(fn.Properties.Environment.Variables.APP_PASSWORD_SECRET_ARN, op.id).toEqual({ Ref: secretId });
      const reads = roleStatements(prod.resources, fn).filter((st) => JSON.stringify(st.Resource) === JSON.stringify({ Ref: secretId }));
      expect(
        reads.flatMap((st) => [st.Action].flat()),
        op.id,
      ).toContain('secretsmanager:GetSecretValue');
    }
    const [, fallback] = fns.get(moduleId(FALLBACK_HANDLER))!;
    expect(roleActions(prod.resources, fallback).actions.has('secretsmanager:GetSecretValue')).toBe(false);
    expect(ofType(dev.resources, 'AWS::SecretsManager::Secret')[0]![1].DeletionPolicy).toBe('Delete');
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

  it('grants each function one invoke permission for the whole API, so that each template stays small', () => {
    const fromApi = ofType(prod.resources, 'AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com');
    expect(fromApi).toHaveLength(apiFunctions(prod.resources).size);
    for (const [, p] of fromApi) {
      const arn = JSON.stringify(p.Properties.SourceArn);
      expect(arn).toContain(`{"Ref":"${ofType(prod.resources, 'AWS::ApiGatewayV2::Api')[0]![0]}"}`);
      // Any stage, method and route of this API (the fallback's: of `$default`).
      expect(arn).toMatch(/"\/\*\/\*(\/\*)?"\]\]\}$/);
    }
    for (const s of [prod, dev, custom]) expectWithinCloudFormationLimits(s);
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
    // WordPress's core term routes, beside TEC's own of the same terms.
    expect(targets.get('GET /{lang}/wp/v2/tags')).toBe(functionId('wpTags.list'));
    expect(targets.get('DELETE /{lang}/wp/v2/tribe_events_cat/{id}')).toBe(functionId('wpCategories.delete'));
    expect(targets.get('PATCH /{lang}/wp/v2/tags/{id}')).toBe(functionId('wpTags.update'));
    expect(targets.get('GET /{lang}/tribe/events/v1/tags')).toBe(functionId('tags.list'));
  });

  it("serves WordPress's URLs with the operations' own routes: /wp-json/… matches each route's {lang}, ?rest_route= only $default", () => {
    const targets = routeTargets(prod.resources);
    const keys = [...targets.keys()];
    const concrete = (path: string) => path.replace('{id}', '12').replace('{slug}', 'a-slug').replace('{user}', 'me').replace('{uuid}', 'u-1');
    for (const op of OPERATIONS) {
      for (const m of [...op.methods, ...(op.methods.includes('GET') ? ['HEAD'] : [])]) {
        const path = concrete(prefixedPath(op, 'tribe', 'wp-json'));
        const key = gatewayRoute(keys, m, path);
        expect(key, `${m} ${path}`).toBe(`${m} ${routePath(op, 'tribe')}`);
        // One integration, the operation's own function: one invocation.
        expect(targets.get(key), `${m} ${path}`).toBe(functionId(op.id));
      }
    }
    expect(targets.get(gatewayRoute(keys, 'GET', '/wp-json/'))).toBe(functionId('root.site'));
    expect(targets.get(gatewayRoute(keys, 'GET', '/wp-json/tribe/events/v1/'))).toBe(functionId('root.index'));
    // API Gateway cannot route on the query: without the CDN's rewrite, these reach the fallback.
    for (const target of ['/?rest_route=/tribe/events/v1/events', '/wp-json/nothing/here', '/wp-json/wp/v2/posts']) {
      expect(gatewayRoute(keys, 'GET', target), target).toBe('$default');
    }
    // Nor do TEC's calendar feeds at the site root reach a feed without the CDN's rewrite: at most
    // the index's `/{lang}`, which refuses a segment that is no language.
    const feeds = [functionId('events.list'), functionId('events.getBySlug')];
    for (const path of ['/events/', '/events/list/', '/events/month/', '/events/2027-01/', '/events/category/jazz/', '/event/a-slug/', '/']) {
      const key = gatewayRoute(keys, 'GET', path);
      expect(feeds, `${path} -> ${key}`).not.toContain(targets.get(key!));
    }
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
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag, Content-Disposition, X-Feed-Events, X-Feed-Truncated',
      vary: 'Authorization, Origin',
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
        [
          'requestId',
          'ip',
          'requestTime',
          'httpMethod',
          'routeKey',
          'status',
          'protocol',
          'responseLength',
          'integrationError',
          'integrationRequestId',
          'integrationStatus',
          'integrationLatency',
        ].sort(),
      );
      expect(format.requestId).toBe('$context.requestId');
      // The Lambda request id, which the function's log lines carry: an access line finds its function log.
      expect(format.integrationRequestId).toBe('$context.integration.requestId');
      expect(format.integrationStatus).toBe('$context.integration.status');
      expect(format.integrationLatency).toBe('$context.integration.latency');
    }
  });
});

describe('table', () => {
  it('is built from lib/store/table.ts: keys, attributes, GSIs and projections', () => {
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
      KeySchema: [{ AttributeName: i.partitionKey, KeyType: 'HASH' }, ...(i.sortKey ? [{ AttributeName: i.sortKey, KeyType: 'RANGE' }] : [])],
      Projection: typeof i.projection === 'string' ? { ProjectionType: i.projection } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...i.projection] },
      // The on-demand maximum (test/infra/monitoring.test.ts).
      WriteOnDemandThroughputSettings: { MaxWriteRequestUnits: prod.stack.settings.maxWriteRequestUnits },
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

  it('has a stream with both images and TTL on the markers’ attribute', () => {
    for (const s of [prod, dev, custom]) {
      const [[, table]] = ofType(s.resources, 'AWS::DynamoDB::GlobalTable') as [[string, Resource]];
      expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TTL_ATTRIBUTE, Enabled: true });
    }
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

describe('change stream', () => {
  const consumerOf = (s: Synth) => apiFunctions(s.resources, 'all').get(STREAM_CONSUMER.id)!;
  const idOf = (s: Synth, type: string) => {
    // The stream's own queue among the stack's queues.
    const found = ofType(s.resources, type).filter(([id]) => type !== 'AWS::SQS::Queue' || id.startsWith('ChangeStream'));
    expect(found, type).toHaveLength(1);
    return found[0]![0];
  };

  it('feeds one consumer from the table stream: partial failures, bisection, retries, a dead-letter queue, in order per shard', () => {
    const [fnId] = consumerOf(prod);
    const mappings = ofType(prod.resources, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName.Ref === fnId);
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    expect(mapping.Properties).toMatchObject({
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [idOf(prod, 'AWS::DynamoDB::GlobalTable'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
      MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE.toSeconds(),
      ParallelizationFactor: 1,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [idOf(prod, 'AWS::SQS::Queue'), 'Arn'] } } },
    });
    expect(STREAM_RETRY_ATTEMPTS).toBeGreaterThan(0);
    // Retries end while the stream still keeps the dead-lettered records (24 hours).
    expect(STREAM_MAX_RECORD_AGE.toSeconds()).toBeLessThan(24 * 3600);
    // Only the records' items wake it.
    expect(mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual([STREAM_FILTER_PATTERN]);
    expect(STREAM_FILTER_PATTERN).toEqual({ dynamodb: { Keys: { sk: { S: ['POST', 'TERM'] } } } });
  });

  it('runs the consumer like the API functions, with the bus in CHANGE_BUS_NAME and no route', () => {
    const [fnId, fn] = consumerOf(prod);
    expect(fnId).toBe(functionId(STREAM_CONSUMER.id));
    expect(fn.Properties).toMatchObject({ Runtime: RUNTIME, Architectures: ['arm64'], MemorySize: 512, Timeout: STREAM_CONSUMER.timeoutSeconds, Handler: 'index.handler' });
    const table = idOf(prod, 'AWS::DynamoDB::GlobalTable');
    const api = idOf(prod, 'AWS::ApiGatewayV2::Api');
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: { Ref: table },
      POWERTOOLS_METRICS_NAMESPACE: `EventCalendar/${prod.stack.stackName}`,
      API_NAMESPACE: 'tribe',
      SITE_URL: { 'Fn::GetAtt': [api, 'ApiEndpoint'] },
      SITE_TIMEZONE: 'UTC',
      DEFAULT_LANGUAGE: 'en',
      CHANGE_BUS_NAME: { Ref: idOf(prod, 'AWS::Events::EventBus') },
      WEBHOOK_QUEUE_URL: { Ref: webhookQueueId(prod) },
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect([...routeTargets(prod.resources).values()]).not.toContain(fnId);
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ChangeBusName!.Value).toEqual({ Ref: idOf(prod, 'AWS::Events::EventBus') });
  });

  it('lets the consumer read the stream, write the table as the writers do, publish to the bus, send to its dead-letter queue and enqueue webhook messages: nothing more', () => {
    const [, fn] = consumerOf(prod);
    const table = idOf(prod, 'AWS::DynamoDB::GlobalTable');
    const statements = roleStatements(prod.resources, fn);
    const on = (resource: unknown) =>
      statements
        .filter((st) => JSON.stringify(st.Resource) === JSON.stringify(resource))
        .flatMap((st) => [st.Action].flat())
        .sort();
    expect(on({ 'Fn::GetAtt': [table, 'Arn'] })).toEqual(STREAM_CONSUMER.tableActions.map((a) => `dynamodb:${a}`).sort());
    expect(STREAM_CONSUMER.tableActions).toEqual(['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem', 'BatchWriteItem']);
    expect(on({ 'Fn::GetAtt': [table, 'StreamArn'] })).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
    expect(on({ 'Fn::GetAtt': [idOf(prod, 'AWS::Events::EventBus'), 'Arn'] })).toEqual(['events:PutEvents']);
    expect(on({ 'Fn::GetAtt': [idOf(prod, 'AWS::SQS::Queue'), 'Arn'] })).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(on({ 'Fn::GetAtt': [webhookQueueId(prod), 'Arn'] })).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    const { actions, managed } = roleActions(prod.resources, fn);
    expect(managed).toEqual([]);
    for (const never of ['dynamodb:Scan', 'dynamodb:*', 'events:*', 'sqs:*']) expect(actions).not.toContain(never);
    expect(statements.filter((st) => st.Condition)).toEqual([]);
    expect(statements.filter((st) => JSON.stringify(st.Resource) === '"*"')).toEqual([]);
  });

  it('keeps dead letters encrypted, for 14 days, reachable over TLS only', () => {
    const queueId = idOf(prod, 'AWS::SQS::Queue');
    expect(prod.resources[queueId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const [[, policy]] = ofType(prod.resources, 'AWS::SQS::QueuePolicy').filter(([, p]) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: queueId }])) as [
      [string, Resource],
    ];
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });
});

/** The webhook queue (FIFO, with a redrive policy) and its dead-letter queue. */
const webhookQueueId = (s: Synth) => {
  const found = ofType(s.resources, 'AWS::SQS::Queue').filter(([id, q]) => id.startsWith('Webhooks') && q.Properties.RedrivePolicy);
  expect(found).toHaveLength(1);
  return found[0]![0];
};

describe('webhook delivery', () => {
  const senderOf = (s: Synth) => apiFunctions(s.resources, 'all').get(WEBHOOK_SENDER.id)!;

  it('queues messages on an encrypted FIFO queue, deduplicated by their ids, with a FIFO dead-letter queue after the sender has had its attempts', () => {
    const queue = prod.resources[webhookQueueId(prod)]!;
    const dlqId = queue.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
    expect(queue.Properties).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
      VisibilityTimeout: WEBHOOK_SENDER.timeoutSeconds * 2,
      RedrivePolicy: { maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    expect(prod.resources[dlqId]!.Properties).toMatchObject({ FifoQueue: true, SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    // The sender gives a message up itself after its last attempt, before the queue would dead-letter it.
    expect(MAX_RECEIVE_COUNT).toBeGreaterThan(RETRY_SCHEDULE_S.length + 1);
    // Every wait fits SQS's longest visibility, and all of them add up to about three days.
    expect(Math.max(...RETRY_SCHEDULE_S)).toBeLessThanOrEqual(MAX_VISIBILITY_SECONDS);
    const total = RETRY_SCHEDULE_S.reduce((a, b) => a + b, 0) / 86_400;
    expect(total).toBeGreaterThan(2.5);
    expect(total).toBeLessThan(3.5);
    // The function's timeout fits in the visibility timeout (SQS refuses the mapping otherwise).
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThan(WEBHOOK_SENDER.timeoutSeconds);
  });

  it('feeds the sender one message at a time with partial batch responses, and gives it the table, the queue URL and ChangeMessageVisibility', () => {
    const [fnId, fn] = senderOf(prod);
    const queueId = webhookQueueId(prod);
    const [[, mapping]] = ofType(prod.resources, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName.Ref === fnId) as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({ EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] }, BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(fn.Properties).toMatchObject({ Timeout: WEBHOOK_SENDER.timeoutSeconds, Handler: 'index.handler' });
    expect(fn.Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: queueId });
    // Never the local runtime's exception for loopback targets.
    expect(fn.Properties.Environment.Variables.WEBHOOK_LOCAL_TARGETS).toBeUndefined();
    expect([...routeTargets(prod.resources).values()]).not.toContain(fnId);
    const statements = roleStatements(prod.resources, fn);
    const onQueue = statements
      .filter((st) => JSON.stringify(st.Resource) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }))
      .flatMap((st) => [st.Action].flat())
      .sort();
    expect(onQueue).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage']);
    const table = ofType(prod.resources, 'AWS::DynamoDB::GlobalTable')[0]![0];
    const onTable = statements
      .filter((st) => JSON.stringify(st.Resource) === JSON.stringify({ 'Fn::GetAtt': [table, 'Arn'] }))
      .flatMap((st) => [st.Action].flat())
      .sort();
    expect(onTable).toEqual(WEBHOOK_SENDER.tableActions.map((a) => `dynamodb:${a}`).sort());
    const { actions } = roleActions(prod.resources, fn);
    for (const never of ['sqs:*', 'sqs:SendMessage', 'dynamodb:Scan', 'events:PutEvents']) expect(actions).not.toContain(never);
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
    expect(Object.keys(outputs).sort()).toEqual(['AlarmTopicArn', 'ApiUrl', 'ChangeBusName', 'TableName', 'UserPoolClientId', 'UserPoolId']);
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toContain('/en/tribe/events/v1/');
    const customOutputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(customOutputs).sort()).toEqual(['AlarmTopicArn', 'ApiUrl', 'ChangeBusName', 'TableName']);
    expect(JSON.stringify(customOutputs.ApiUrl!.Value)).toContain('/en/calendar/events/v1/');
  });
});

describe('cdk-nag AwsSolutions', () => {
  // cdk-nag walks every construct of three stacks: seconds alone, more on a loaded machine.
  it('leaves no unacknowledged error or warning, by default and with every option', { timeout: 120_000 }, () => {
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
    // An older runtime than the latest (ours is the latest: AwsSolutions-L1 is acknowledged only
    // for when aws-cdk-lib knows a newer one) and the default role instead of our own.
    new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('export const handler = async () => ({});') });
    const report = new AwsSolutionsChecks(app).validateScope(app);
    const rules = report.violations.map((v) => v.ruleName);
    expect(rules).toContain('AwsSolutions-L1');
    expect(rules.some((r) => r.startsWith('AwsSolutions-IAM4'))).toBe(true);
  });
});

describe('schedules', () => {
  it('invokes each scheduled function by an EventBridge rule at its rate, with retries, and grants it its table actions alone', () => {
    const root = prod.template.toJSON().Resources as Resources;
    const rules = ofType(root, 'AWS::Events::Rule');
    expect(SCHEDULED_FUNCTIONS.map((f) => f.id)).toEqual([SERIES_HORIZON.id]);
    expect(rules).toHaveLength(SCHEDULED_FUNCTIONS.length);
    for (const f of SCHEDULED_FUNCTIONS) {
      const [, rule] = rules.find(([, r]) => r.Properties.Description === `Runs ${f.id} (${f.schedule})`)!;
      expect(rule.Properties.ScheduleExpression).toBe(f.schedule);
      expect(rule.Properties.State).toBe('ENABLED');
      const [target] = rule.Properties.Targets;
      expect(target.Arn).toEqual({ 'Fn::GetAtt': [functionId(f.id), 'Arn'] });
      expect(target.RetryPolicy).toEqual({ MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 2 });
      // EventBridge may invoke it, from this rule only.
      const permissions = ofType(root, 'AWS::Lambda::Permission').filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(functionId(f.id)));
      expect(permissions.map(([, p]) => [p.Properties.Principal, p.Properties.Action])).toEqual([['events.amazonaws.com', 'lambda:InvokeFunction']]);
      expect(f.schedule).toBe('rate(1 day)');
      expect(f.timeoutSeconds).toBe(300);
    }
  });
});
