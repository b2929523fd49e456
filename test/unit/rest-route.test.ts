// WordPress's `?rest_route=` URLs, rewritten to the REST prefix by the CDN's viewer-request
// function before routing; the local gateway runs the same source (lib/local/edge.ts).
import { describe, expect, it } from 'vitest';
import { atTheEdge } from '#lib/local/edge.js';
import { REST_ROUTE_FUNCTION } from '#lib/contract/rest-route.js';

describe('the ?rest_route= rewrite', () => {
  it('moves the route to the /wp-json/ path and keeps the whole query', () => {
    const cases: [string, string][] = [
      ['/?rest_route=/tribe/events/v1/events', '/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/events'],
      ['/index.php?rest_route=/tribe/events/v1/events&page=2', '/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/events&page=2'],
      ['/?page=2&rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents%2F7', '/wp-json/tribe/events/v1/events/7?page=2&rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents%2F7'],
      // WordPress drops trailing slashes; the root is the index.
      ['/?rest_route=/tribe/events/v1/', '/wp-json/tribe/events/v1?rest_route=/tribe/events/v1/'],
      ['/?rest_route=/', '/wp-json/?rest_route=/'],
      ['/?rest_route=%2F', '/wp-json/?rest_route=%2F'],
      // PHP decodes `+` and escapes, and keeps the last of repeated names; the path is encoded again.
      [
        '/?rest_route=/tribe/events/v1/venues/by-slug/caf%C3%A9+bar',
        '/wp-json/tribe/events/v1/venues/by-slug/caf%C3%A9%20bar?rest_route=/tribe/events/v1/venues/by-slug/caf%C3%A9+bar',
      ],
      ['/?rest_route=/nothing&rest_route=/wp/v2/users/me', '/wp-json/wp/v2/users/me?rest_route=/nothing&rest_route=/wp/v2/users/me'],
    ];
    for (const [from, to] of cases) expect(atTheEdge('GET', from), from).toBe(to);
  });

  it('passes everything else through unchanged', () => {
    for (const target of [
      '/',
      '/?page=2',
      '/?rest_route=',
      '/?rest_route=tribe/events/v1/events',
      '/?rest_route=%E0%A4%A',
      '/en/tribe/events/v1/events?rest_route=/wp/v2/users/me',
      '/wp-json/tribe/events/v1/events?rest_route=/x',
      '/index.php/x?rest_route=/tribe/events/v1/events',
      '/docs?rest_route=/tribe/events/v1/events',
    ]) {
      expect(atTheEdge('GET', target), target).toBe(target);
    }
  });

  it('is a CloudFront Functions source: one handler, no imports, no Node, no template literals', () => {
    expect(REST_ROUTE_FUNCTION.startsWith('function handler(event) {')).toBe(true);
    expect(REST_ROUTE_FUNCTION).not.toMatch(/\b(?:require|import|process|Buffer|async|await)\b|`|=>/);
  });
});
