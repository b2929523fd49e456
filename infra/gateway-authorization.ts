// Why no route of the HTTP API has a gateway authorizer, acknowledged wherever routes are made:
// on the API itself (the parent's `$default`) and on each nested stack of operations.
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StackSettings } from './settings.js';

export function acknowledgeGatewayAuthorization(scope: IConstruct, settings: StackSettings): void {
  const why =
    'Authorization is done by every handler with aws-jwt-verify (docs/design.md §5), so that 401 and 403 keep the ' +
    'WordPress error envelope {code, message, data} (a gateway authorizer answers with its own body) and ' +
    'read routes stay public for anonymous callers, as in TEC.';
  Validations.of(scope).acknowledge({ id: 'AwsSolutions-APIG4', reason: why });
  Validations.of(scope).acknowledge({
    id: 'AwsSolutions-COG4',
    reason: settings.authIssuer
      ? `${why} Tokens come from the configured issuer, not from a Cognito user pool.`
      : `${why} The handlers verify the stack's Cognito user pool tokens themselves.`,
  });
}
