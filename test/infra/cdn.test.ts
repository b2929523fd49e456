// CloudFront in front of the API (`-c cdn=true`, infra/cdn.ts): template assertions and cdk-nag.
import { describe, expect, it } from 'vitest';
import { expectNoNagFindings, ofType, synth } from '../support/synth.js';
import { runInNewContext } from 'node:vm';
import { viewerRequestFunction } from '#lib/contract/rest-route.js';

const plain = synth();
const cdn = synth({ cdn: true, cacheMaxAge: 20, cacheStaleWhileRevalidate: 40 });
/** CloudFront's managed origin request policy AllViewerExceptHostHeader. */
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const apiFunctionEnvironments = (resources: typeof cdn.resources) =>
  ofType(resources, 'AWS::Lambda::Function')
    .map(([, r]) => r.Properties.Environment?.Variables as Record<string, unknown> | undefined)
    .filter((v): v is Record<string, unknown> => v?.APP_PASSWORD_SECRET_ARN !== undefined);

describe('CloudFront (cdn=true)', () => {
  it('is absent unless asked for', () => {
    expect(ofType(plain.resources, 'AWS::CloudFront::Distribution')).toEqual([]);
    expect(Object.keys(plain.template.toJSON().Outputs)).not.toContain('CdnUrl');
    for (const env of apiFunctionEnvironments(plain.resources)) expect(env).toMatchObject({ CACHE_MAX_AGE: '5', CACHE_STALE_WHILE_REVALIDATE: '10' });
  });

  it('caches GET and HEAD by path and full query string, with credentials and origin in the key, for as long as the handlers say', () => {
    const [[, policy]] = ofType(cdn.resources, 'AWS::CloudFront::CachePolicy') as [[string, any]];
    const config = policy.Properties.CachePolicyConfig;
    expect(config).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 300 });
    const key = config.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    expect(key.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(key.HeadersConfig.HeaderBehavior).toBe('whitelist');
    // tec/v1's acknowledgement header too: an acknowledged answer is never served to a request without it.
    expect([...key.HeadersConfig.Headers].sort()).toEqual(['Authorization', 'Origin', 'X-TEC-EEA']);

    const [[policyId]] = ofType(cdn.resources, 'AWS::CloudFront::CachePolicy');
    const [[, dist]] = ofType(cdn.resources, 'AWS::CloudFront::Distribution') as [[string, any]];
    const behavior = dist.Properties.DistributionConfig.DefaultCacheBehavior;
    expect([...behavior.AllowedMethods].sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    expect(behavior.CachedMethods).toEqual(['GET', 'HEAD']);
    expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    expect(behavior.CachePolicyId).toEqual({ Ref: policyId });
    expect(behavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST);
    const [origin] = dist.Properties.DistributionConfig.Origins;
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    // The origin is the HTTP API's own host.
    expect(JSON.stringify(origin.DomainName)).toContain('HttpApi');
  });

  it('makes links point at CloudFront, passes the cache lifetimes to every function and outputs the URL', () => {
    const [[distId]] = ofType(cdn.resources, 'AWS::CloudFront::Distribution');
    const envs = apiFunctionEnvironments(cdn.resources);
    expect(envs.length).toBeGreaterThan(30);
    for (const env of envs) {
      expect(env).toMatchObject({ CACHE_MAX_AGE: '20', CACHE_STALE_WHILE_REVALIDATE: '40' });
      expect(JSON.stringify(env.SITE_URL)).toContain(distId);
    }
    const outputs = cdn.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.CdnUrl!.Value)).toContain(distId);
    expect(JSON.stringify(outputs.CdnUrl!.Value)).toContain('/en/tribe/events/v1/');
  });

  it('rewrites ?rest_route= URLs and the site root calendar feeds at the viewer request, before the cache and the origin', () => {
    expect(ofType(plain.resources, 'AWS::CloudFront::Function')).toEqual([]);
    const [[fnId, fn]] = ofType(cdn.resources, 'AWS::CloudFront::Function') as [[string, any]];
    expect(fn.Properties.FunctionCode).toBe(viewerRequestFunction('tribe'));
    // The deployed source itself: a feed of TEC's becomes the REST feed, with the view's window.
    const handler = runInNewContext(`${fn.Properties.FunctionCode}\nhandler;`, Object.create(null));
    const at = (uri: string, querystring: object, method = 'GET') => handler({ version: '1.0', context: { eventType: 'viewer-request' }, request: { method, uri, querystring } });
    const month = at('/events/category/jazz/2027-01/', { ical: { value: '1' } });
    expect(month.uri).toBe('/wp-json/tribe/events/v1/events');
    expect(Object.fromEntries(Object.entries(month.querystring).map(([k, v]: [string, any]) => [k, v.value]))).toEqual({
      ical: '1',
      strict_dates: '1',
      ical_limit: '30',
      month: '2027-01',
      categories: 'jazz',
    });
    expect(at('/event/winter-concert/', { ical: { value: '1' } }).uri).toBe('/wp-json/tribe/events/v1/events/by-slug/winter-concert');
    expect(at('/', { rest_route: { value: '/tribe/events/v1/venues' } }).uri).toBe('/wp-json/tribe/events/v1/venues');
    expect(at('/events/', { ical: { value: '1' } }, 'POST').uri).toBe('/events/');
    expect(at('/events/', {}).uri).toBe('/events/');
    // Another namespace word is the function's too.
    const [[, other]] = ofType(synth({ cdn: true, namespace: 'acme' }).resources, 'AWS::CloudFront::Function') as [[string, any]];
    expect(other.Properties.FunctionCode).toBe(viewerRequestFunction('acme'));
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.Properties.AutoPublish).toBe(true);
    const [[, dist]] = ofType(cdn.resources, 'AWS::CloudFront::Distribution') as [[string, any]];
    expect(dist.Properties.DistributionConfig.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
  });

  it('leaves cdk-nag clean', () => {
    expectNoNagFindings(cdn);
  });

  it('refuses bad cache lifetimes', () => {
    expect(() => synth({ cacheMaxAge: 'soon' })).toThrow(/cacheMaxAge/);
    expect(() => synth({ cdn: 'yes' })).toThrow(/cdn/);
  });
});
