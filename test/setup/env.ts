// Runs in every test worker before the test file is imported: the DynamoDB endpoint from the
// global setup, the development issuer, and fixed site settings (the developer's shell must not
// change what the tests see).
import { inject } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv } from '#lib/local/dev-auth.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const endpoint = inject('dynamodbEndpoint');
if (endpoint) process.env.DYNAMODB_ENDPOINT = endpoint;
else delete process.env.DYNAMODB_ENDPOINT;
process.env.AWS_REGION ||= 'us-east-1';

for (const name of [
  'API_NAMESPACE',
  'SITE_TIMEZONE',
  'DEFAULT_LANGUAGE',
  'SITE_NAME',
  'SITE_DESCRIPTION',
  'POSTS_PER_PAGE',
  'MAX_PER_PAGE',
  'MAX_BODY_BYTES',
  'ICAL_MAX_EVENTS',
  'ICAL_MAX_BYTES',
  'COGNITO_USER_POOL_ID',
  'COGNITO_CLIENT_ID',
  'AUTH_GROUPS_CLAIM',
]) {
  delete process.env[name];
}
Object.assign(process.env, localAuthEnv(await ensureDevKeys('.local')));
process.env.SITE_URL = 'http://127.0.0.1:3000';
process.env.TABLE_NAME ||= 'event-calendar-test';
resetConfig();
