// CloudFront in front of the HTTP API (context `cdn=true`): anonymous GETs are served from the
// edge for the few seconds the handlers allow (lib/http/conditional.ts), keyed by the path (which
// holds the language) and the full query string. The credentials and the origin are part of the
// key, so a request with `Authorization` never gets another caller's answer (and so is `X-TEC-EEA`,
// so that tec/v1's answer to an acknowledged request never reaches one without it), and the handlers
// mark every such answer `private, no-store`, so CloudFront never keeps it. Writes pass through.
// A viewer-request function rewrites WordPress's `?rest_route=` URLs to the REST prefix, and TEC's
// calendar feeds at the site root (`/events/?ical=1`…) to the REST feeds, before the cache and
// the origin see them (lib/contract/rest-route.ts): API Gateway routes on the path only.
import { Duration, Fn, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import { Construct } from 'constructs';
import { viewerRequestFunction } from '#lib/contract/rest-route.js';

export interface CdnProps {
  api: apigw.HttpApi;
  /** The longest any answer may stay at the edge, whatever the handlers say. */
  maxTtlSeconds: number;
  /** The API's namespace word, which the site's rewritten URLs reach. */
  namespace: string;
}

export class Cdn extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>`, without a trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: CdnProps) {
    super(scope, id);
    // `https://<id>.execute-api.<region>.amazonaws.com` -> the host.
    const apiHost = Fn.select(2, Fn.split('/', props.api.apiEndpoint));

    const cachePolicy = new cloudfront.CachePolicy(this, 'Reads', {
      comment: 'GETs by path and full query string; Authorization, Origin and X-TEC-EEA in the key; TTLs from the handlers',
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization', 'Origin', 'X-TEC-EEA'),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      // With a minimum of 0, `private` and `no-store` answers are never kept, and an answer
      // without Cache-Control is not kept either.
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(props.maxTtlSeconds),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const restRoute = new cloudfront.Function(this, 'RestRoute', {
      comment: 'WordPress ?rest_route= URLs and TEC calendar feeds (/events/?ical=1) to their REST routes',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(viewerRequestFunction(props.namespace)),
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Event Calendar API',
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: new origins.HttpOrigin(apiHost, {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
          // The API Gateway integration limit; a handler answers within 10 s.
          readTimeout: Duration.seconds(30),
        }),
        // Writes pass through; only GET and HEAD are ever looked up in the cache.
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        cachePolicy,
        // Everything the viewer sent (conditional headers, Idempotency-Key, the body's type), but
        // the Host, which must be the API's own.
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: true,
        functionAssociations: [{ function: restRoute, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    const acknowledge = (ruleId: string, reason: string) => Validations.of(this.distribution).acknowledge({ id: ruleId, reason });
    acknowledge('AwsSolutions-CFR1', 'A public event calendar serves every country, as the API behind it does; the API needs no geographic restriction.');
    acknowledge(
      'AwsSolutions-CFR2',
      'The API stage throttles every route and the table has a read and write ceiling (docs/operations.md, Operating it); a WAF web ACL is an option with its own monthly cost, not a requirement of this stack.',
    );
    acknowledge(
      'AwsSolutions-CFR3',
      'Every request CloudFront forwards is in the API stage access log, and cache hits are counted in CloudFront metrics; edge logs would need an S3 bucket with ACLs enabled.',
    );
    acknowledge(
      'AwsSolutions-CFR4',
      'The distribution uses its default *.cloudfront.net certificate, for which CloudFront fixes the viewer TLS policy; a custom domain with its own certificate gets TLSv1.2_2021.',
    );
  }
}
