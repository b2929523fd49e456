// What the bundles use in place of the SDK's default credential chain (`defaultProvider` of
// @aws-sdk/credential-provider-node, aliased to this module by infra/bundling.ts). Lambda always
// hands a function its role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN, so the chain's other links (profiles, SSO, web identity, container and
// instance metadata, with the STS and SSO clients they carry) are dead weight on every cold
// start: about 130 KB of each bundle. Code run with tsx (tests, the local runtime) keeps the
// SDK's own chain.
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: FromEnvInit = {}) => fromEnv(init);
