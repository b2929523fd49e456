// The AWS stack: one DynamoDB table (lib/table.ts), one function and its routes per operation
// (lib/operations.ts) behind an HTTP API, and a Cognito user pool unless an issuer is configured.
// Everything here is derived from those modules and lib/auth.ts (the roles); nothing lists routes or keys twice.
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ROLES } from '../lib/auth.js';
import { FALLBACK_HANDLER, FALLBACK_TIMEOUT_SECONDS, OPERATIONS, routePath, type Method } from '../lib/operations.js';
import { INDEXES, KEY, type IndexDefinition } from '../lib/table.js';
import { ApiFunction, moduleId } from './api-function.js';
import { readSettings, type StackSettings } from './settings.js';

export type EventCalendarStackProps = StackProps;


export class EventCalendarStack extends Stack {
  readonly settings: StackSettings;
  readonly table: dynamodb.TableV2;
  readonly api: apigw.HttpApi;
  readonly userPool?: cognito.UserPool;
  readonly userPoolClient?: cognito.UserPoolClient;
  /** The function of every operation, by operation id. */
  readonly functions = new Map<string, ApiFunction>();
  readonly fallback: ApiFunction;

  constructor(scope: Construct, id: string, props?: EventCalendarStackProps) {
    super(scope, id, {
      description: 'Event Calendar REST API (TEC REST v1 compatible): HTTP API, Lambda, DynamoDB, Cognito',
      ...props,
    });
    const settings = (this.settings = readSettings(this.node));
    // Records and accounts outlive the stack unless this is a development deployment.
    const keep = settings.dev ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.table = this.makeTable(settings, keep);
    this.api = this.makeApi(settings);
    const auth = settings.authIssuer ? undefined : this.makeUserPool(settings, keep);
    this.userPool = auth?.pool;
    this.userPoolClient = auth?.client;

    const environment: Record<string, string> = {
      TABLE_NAME: this.table.tableName,
      API_NAMESPACE: settings.namespace,
      // The API's own endpoint (a token, no trailing slash) unless the site has a public URL.
      SITE_URL: settings.siteUrl ?? this.api.apiEndpoint,
      SITE_TIMEZONE: settings.siteTimezone,
      ...(auth
        ? { COGNITO_USER_POOL_ID: auth.pool.userPoolId, COGNITO_CLIENT_ID: auth.client.userPoolClientId }
        : authIssuerEnvironment(settings.authIssuer!)),
    };

    for (const op of OPERATIONS) {
      const fn = new ApiFunction(this, {
        operationId: op.id,
        handler: op.handler,
        description: `${op.id}: ${op.summary}`,
        environment,
        logRetention: settings.logRetention,
        timeoutSeconds: op.timeoutSeconds,
      });
      fn.allowTable(this.table.tableArn, op.tableActions);
      this.functions.set(op.id, fn);

      const integration = new HttpLambdaIntegration('Integration', fn.function);
      const methods = new Set<Method | 'HEAD'>(op.methods);
      // HTTP APIs do not answer HEAD for GET routes by themselves; the pipeline drops the body.
      if (methods.has('GET')) methods.add('HEAD');
      this.api.addRoutes({ path: routePath(op, settings.namespace), methods: [...methods].map((m) => apigw.HttpMethod[m]), integration });
    }

    // Everything no route matches gets WordPress's 404 `rest_no_route` from the fallback.
    this.fallback = new ApiFunction(this, {
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
      integration: new HttpLambdaIntegration('FallbackIntegration', this.fallback.function),
    });

    this.acknowledgeGatewayAuthorization(settings);

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API (English)',
      value: `${this.api.apiEndpoint}/en/${settings.namespace}/events/v1/`,
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    if (auth) {
      new CfnOutput(this, 'UserPoolId', { value: auth.pool.userPoolId });
      new CfnOutput(this, 'UserPoolClientId', { value: auth.client.userPoolClientId });
    }
  }

  private makeTable(settings: StackSettings, removalPolicy: RemovalPolicy): dynamodb.TableV2 {
    const attribute = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    return new dynamodb.TableV2(this, 'Table', {
      partitionKey: attribute(KEY.pk),
      sortKey: attribute(KEY.sk),
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: !settings.dev,
      removalPolicy,
      globalSecondaryIndexes: Object.values(INDEXES).map((index: IndexDefinition): dynamodb.GlobalSecondaryIndexPropsV2 => ({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        ...(index.projection === 'ALL'
          ? { projectionType: dynamodb.ProjectionType.ALL }
          : index.projection === 'KEYS_ONLY'
            ? { projectionType: dynamodb.ProjectionType.KEYS_ONLY }
            : { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
      })),
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
      ...(settings.threatProtection
        ? { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION }
        : {}),
      deletionProtection: !settings.dev,
      removalPolicy,
    });

    // The roles of DESIGN §5, in the token's `cognito:groups`. A lower precedence wins.
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

  private acknowledgeGatewayAuthorization(settings: StackSettings): void {
    const why =
      'Authorization is done by every handler with aws-jwt-verify (DESIGN §5), so that 401 and 403 keep the ' +
      'WordPress error envelope {code, message, data} (a gateway authorizer answers with its own body) and ' +
      'read routes stay public for anonymous callers, as in TEC.';
    Validations.of(this.api).acknowledge({ id: 'AwsSolutions-APIG4', reason: why });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-COG4',
      reason: settings.authIssuer
        ? `${why} Tokens come from the configured issuer, not from a Cognito user pool.`
        : `${why} The handlers verify the stack's Cognito user pool tokens themselves.`,
    });
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
