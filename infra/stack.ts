// The AWS stack: one DynamoDB table (lib/store/table.ts), one function and its routes per operation
// (lib/contract/operations.ts) behind an HTTP API, a Cognito user pool unless an issuer is configured, and
// the table stream's consumer with the change feed's bus (infra/stream.ts).
// The operations' functions and routes live in nested stacks, one per group of operations
// (infra/operation-groups.ts, infra/operation-stack.ts), so that no template nears CloudFormation's
// 500 resources: the parent holds the shared parts and one resource per group.
// Everything here is derived from those modules and lib/auth/tokens.ts (the roles); nothing lists routes or keys twice.
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ROLES } from '#lib/contract/principal.js';
import { stackMetricNamespace } from '#lib/observe/metric-names.js';
import { FALLBACK_HANDLER, FALLBACK_TIMEOUT_SECONDS, OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { INDEXES, KEY, STREAM_VIEW_TYPE, TTL_ATTRIBUTE, type IndexDefinition } from '#lib/store/table.js';
import { ApiFunction, moduleId } from './api-function.js';
import { Monitoring, OperationsDashboard } from './monitoring.js';
import { operationGroups } from './operation-groups.js';
import { OperationStack } from './operation-stack.js';
import { readSettings, type StackSettings } from './settings.js';
import { ChangeStream } from './stream.js';
import { WebhookDelivery } from './webhooks.js';
import { Schedules } from './schedules.js';
import { Cdn } from './cdn.js';
import { acknowledgeGatewayAuthorization } from './gateway-authorization.js';

/** The longest CloudFront keeps any answer, whatever max-age a handler sends. */
const CDN_MAX_TTL_SECONDS = 300;

export interface EventCalendarStackProps extends StackProps {
  /** The operations to deploy: lib/contract/operations.ts, unless a test sizes the stack with more. */
  operations?: readonly Operation[];
}

export class EventCalendarStack extends Stack {
  readonly settings: StackSettings;
  readonly table: dynamodb.TableV2;
  readonly api: apigw.HttpApi;
  readonly userPool?: cognito.UserPool;
  readonly userPoolClient?: cognito.UserPoolClient;
  /** The function of every operation, by operation id. */
  readonly functions = new Map<string, ApiFunction>();
  readonly fallback: ApiFunction;
  readonly changeStream: ChangeStream;
  readonly webhooks: WebhookDelivery;
  readonly schedules: Schedules;
  readonly monitoring: Monitoring;
  /** One nested stack per group of operations. */
  readonly operationStacks: OperationStack[];
  readonly dashboard: OperationsDashboard;
  readonly cdn?: Cdn;

  constructor(scope: Construct, id: string, { operations = OPERATIONS, ...props }: EventCalendarStackProps = {}) {
    super(scope, id, {
      description: 'Event Calendar REST API (TEC REST v1 compatible): HTTP API, Lambda, DynamoDB, Cognito',
      ...props,
    });
    const settings = (this.settings = readSettings(this.node));
    // Records and accounts outlive the stack unless this is a development deployment.
    const keep = settings.dev ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.table = this.makeTable(settings, keep);
    this.api = this.makeApi(settings);
    this.cdn = settings.cdn ? new Cdn(this, 'Cdn', { api: this.api, maxTtlSeconds: CDN_MAX_TTL_SECONDS, namespace: settings.namespace }) : undefined;
    const auth = settings.authIssuer ? undefined : this.makeUserPool(settings, keep);
    this.userPool = auth?.pool;
    this.userPoolClient = auth?.client;

    const passwordKey = this.makePasswordKey(keep);
    const { shared, environment } = this.environments(settings, passwordKey, auth);
    this.fallback = this.makeFallback(settings, environment);
    this.changeStream = new ChangeStream(this, 'ChangeStream', { table: this.table, environment: shared, logRetention: settings.logRetention });
    this.webhooks = new WebhookDelivery(this, 'Webhooks', { table: this.table, environment: shared, logRetention: settings.logRetention, producer: this.changeStream.consumer });

    this.schedules = new Schedules(this, 'Schedules', { table: this.table, environment: shared, logRetention: settings.logRetention });

    acknowledgeGatewayAuthorization(this.api, settings);
    this.monitoring = new Monitoring(this, 'Monitoring', {
      fallback: this.fallback,
      table: this.table,
      stream: this.changeStream,
      webhooks: this.webhooks,
      schedules: this.schedules,
      settings,
    });

    // Each group of operations in a nested stack of its own, so that the parent holds the shared
    // parts and one resource per group, however many operations the table has.
    this.operationStacks = operationGroups(operations).map(
      (group) =>
        new OperationStack(this, {
          group,
          api: this.api,
          tableArn: this.table.tableArn,
          environment,
          passwordKey,
          settings,
          alarms: this.monitoring.alarmFactory,
        }),
    );
    for (const { functions } of this.operationStacks) for (const f of functions) this.functions.set(f.operation, f.fn);
    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      settings,
      groups: this.operationStacks.map((s) => ({ id: s.group.id, functions: s.functions })),
      fallback: this.fallback,
      table: this.table,
      stream: this.changeStream,
    });
    this.makeOutputs(settings, auth);
  }

  /** What every function reads (`shared`), and what the API's functions read, which also check credentials. */
  private environments(settings: StackSettings, passwordKey: secretsmanager.Secret, auth: { pool: cognito.UserPool; client: cognito.UserPoolClient } | undefined) {
    const shared: Record<string, string> = {
      TABLE_NAME: this.table.tableName,
      POWERTOOLS_METRICS_NAMESPACE: stackMetricNamespace(this.stackName),
      API_NAMESPACE: settings.namespace,
      // The API's own endpoint, or CloudFront's (a token, no trailing slash), unless the site has a public URL.
      SITE_URL: settings.siteUrl ?? this.cdn?.url ?? this.api.apiEndpoint,
      SITE_TIMEZONE: settings.siteTimezone,
      DEFAULT_LANGUAGE: settings.defaultLanguage,
      ...(settings.siteName !== undefined ? { SITE_NAME: settings.siteName } : {}),
      ...(settings.siteDescription !== undefined ? { SITE_DESCRIPTION: settings.siteDescription } : {}),
    };
    const environment: Record<string, string> = {
      ...shared,
      CACHE_MAX_AGE: String(settings.cacheMaxAge),
      CACHE_STALE_WHILE_REVALIDATE: String(settings.cacheStaleWhileRevalidate),
      APP_PASSWORD_SECRET_ARN: passwordKey.secretArn,
      ...(auth ? { COGNITO_USER_POOL_ID: auth.pool.userPoolId, COGNITO_CLIENT_ID: auth.client.userPoolClientId } : authIssuerEnvironment(settings.authIssuer!)),
    };
    return { shared, environment };
  }

  /** Everything no route matches gets WordPress's 404 `rest_no_route` from the fallback. */
  private makeFallback(settings: StackSettings, environment: Record<string, string>): ApiFunction {
    const fallback = new ApiFunction(this, {
      operationId: moduleId(FALLBACK_HANDLER),
      handler: FALLBACK_HANDLER,
      description: 'Answers requests no route matches with rest_no_route',
      environment,
      logRetention: settings.logRetention,
      timeoutSeconds: FALLBACK_TIMEOUT_SECONDS,
    });
    // It answers without reading anything, so it gets no table access at all.
    new apigw.HttpRoute(this.api, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: apigw.HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('FallbackIntegration', fallback.function),
    });
    return fallback;
  }

  private makeOutputs(settings: StackSettings, auth: { pool: cognito.UserPool; client: cognito.UserPoolClient } | undefined): void {
    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (English)',
      value: `${this.api.apiEndpoint}/en/${settings.namespace}/events/v1/`,
    });
    if (this.cdn) {
      new CfnOutput(this, 'CdnUrl', { description: 'Base URL of the API through CloudFront (English)', value: `${this.cdn.url}/en/${settings.namespace}/events/v1/` });
    }
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'SNS topic every alarm notifies', value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'ChangeBusName', { description: 'EventBridge bus of the change feed (docs/change-feed.md)', value: this.changeStream.bus.eventBusName });
    if (auth) {
      new CfnOutput(this, 'UserPoolId', { value: auth.pool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', { value: auth.client.userPoolClientId });
    }
  }

  /**
   * The key of the application-password hashes (lib/auth/app-password-key.ts). It is kept with the
   * table: without it no stored password can be checked again.
   */
  private makePasswordKey(removalPolicy: RemovalPolicy): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, 'AppPasswordKey', {
      description: 'HMAC key of the Event Calendar API application-password hashes',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A rotated key would invalidate every application password at once (only keyed hashes are stored). ' +
        'Passwords are revoked one by one through the API instead; the key never leaves Secrets Manager and the functions.',
    });
    return secret;
  }

  private makeTable(settings: StackSettings, removalPolicy: RemovalPolicy): dynamodb.TableV2 {
    const attribute = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    return new dynamodb.TableV2(this, 'Table', {
      partitionKey: attribute(KEY.pk),
      sortKey: attribute(KEY.sk),
      billing: dynamodb.Billing.onDemand({ maxReadRequestUnits: settings.maxReadRequestUnits, maxWriteRequestUnits: settings.maxWriteRequestUnits }),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Read by the one stream consumer (infra/stream.ts); the feed's markers expire by TTL.
      dynamoStream: dynamodb.StreamViewType[STREAM_VIEW_TYPE],
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: !settings.dev,
      removalPolicy,
      globalSecondaryIndexes: Object.values(INDEXES).map(
        (index: IndexDefinition): dynamodb.GlobalSecondaryIndexPropsV2 => ({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
          // Lists and slug reads query the indexes; the table's maximum does not cover them.
          maxReadRequestUnits: settings.maxReadRequestUnits,
          maxWriteRequestUnits: settings.maxWriteRequestUnits,
          ...(index.projection === 'ALL'
            ? { projectionType: dynamodb.ProjectionType.ALL }
            : index.projection === 'KEYS_ONLY'
              ? { projectionType: dynamodb.ProjectionType.KEYS_ONLY }
              : { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
        }),
      ),
    });
  }

  private makeApi(settings: StackSettings): apigw.HttpApi {
    const api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: this.stackName,
      description: 'Event Calendar REST API (TEC REST v1 compatible)',
      // The stage is made below, with access logs and throttling.
      createDefaultStage: false,
      // No CORS configuration: API Gateway would answer preflights itself and replace the
      // handlers' CORS headers with its own. The handlers answer as WordPress does (echoing the
      // origin), and preflights (OPTIONS) reach the fallback through $default.
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: settings.throttleRate, burstLimit: settings.throttleBurst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationError: '$context.integrationErrorMessage',
            // The Lambda request id: the function's log lines carry it.
            integrationRequestId: '$context.integration.requestId',
            integrationStatus: '$context.integration.status',
            integrationLatency: '$context.integration.latency',
          }),
        ),
      },
    });
    return api;
  }

  private makeUserPool(settings: StackSettings, removalPolicy: RemovalPolicy) {
    const pool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `${this.stackName}-users`,
      // Accounts are made by an administrator; nobody signs themselves up to edit the calendar.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: settings.mfaRequired ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Threat protection (compromised credentials, adaptive authentication) needs the Plus plan,
      // which is billed per MAU: opt in with `-c threatProtection=true`.
      featurePlan: settings.threatProtection ? cognito.FeaturePlan.PLUS : cognito.FeaturePlan.ESSENTIALS,
      ...(settings.threatProtection ? { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      deletionProtection: !settings.dev,
      removalPolicy,
    });

    // The roles of docs/design.md §5, in the token's `cognito:groups`. A lower precedence wins.
    const byRank = [...ROLES].reverse(); // editor, author, contributor
    byRank.forEach((role, precedence) => {
      new cognito.CfnUserPoolGroup(this, `Group${role[0]!.toUpperCase()}${role.slice(1)}`, {
        userPoolId: pool.userPoolId,
        groupName: role,
        description: `Event Calendar ${role}s`,
        precedence,
      });
    });

    const client = pool.addClient('ApiClient', {
      generateSecret: false,
      authFlows: { userPassword: true, userSrp: true },
      // Tokens come from InitiateAuth; there is no hosted UI.
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    if (!settings.mfaRequired) {
      Validations.of(pool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason:
          'TOTP MFA is offered (optional) but not forced, so that publishing scripts that sign in with ' +
          'USER_PASSWORD_AUTH keep working; deploy with `-c mfa=required` to force it.',
      });
    }
    if (!settings.threatProtection) {
      Validations.of(pool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan is billed per monthly active user; the pool uses Essentials with a strong ' +
          'password policy and no self sign-up. Deploy with `-c threatProtection=true` for Plus with ' +
          'threat protection enforced.',
      });
    }
    return { pool, client };
  }
}

function authIssuerEnvironment(auth: NonNullable<StackSettings['authIssuer']>): Record<string, string> {
  return {
    AUTH_ISSUER: auth.issuer,
    ...(auth.audience ? { AUTH_AUDIENCE: auth.audience } : {}),
    ...(auth.jwksUri ? { AUTH_JWKS_URI: auth.jwksUri } : {}),
    ...(auth.groupsClaim ? { AUTH_GROUPS_CLAIM: auth.groupsClaim } : {}),
  };
}
