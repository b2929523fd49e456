// Webhook signatures as the Standard Webhooks specification makes them: its published test vector,
// and what a receiver refuses (a changed body, id or timestamp, another secret, a stale delivery).
import { describe, expect, it } from 'vitest';
import { isSecret, newSecret, signature, signedHeaders, TOLERANCE_S, verify } from '#lib/domain/webhook-signature.js';

// The specification's own example (and its reference libraries' tests).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signatures', () => {
  it('reproduce the specification’s test vector', () => {
    expect(signature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    expect(signedHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
    });
  });

  it('verify as a receiver does: the genuine delivery, and none that was changed', () => {
    const headers = signedHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    expect(verify(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp)).toBe(true);
    expect(verify(VECTOR.secret, headers, '{"test": 2432232315}', VECTOR.timestamp)).toBe(false);
    expect(verify(VECTOR.secret, { ...headers, 'webhook-id': 'msg_other' }, VECTOR.body, VECTOR.timestamp)).toBe(false);
    expect(verify(VECTOR.secret, { ...headers, 'webhook-timestamp': '1614265331' }, VECTOR.body, VECTOR.timestamp)).toBe(false);
    expect(verify(newSecret(), headers, VECTOR.body, VECTOR.timestamp)).toBe(false);
    // One of several signatures (a receiver between two secrets) is enough; other versions are not read.
    expect(verify(VECTOR.secret, { ...headers, 'webhook-signature': `v1,AAAA ${VECTOR.signature}` }, VECTOR.body, VECTOR.timestamp)).toBe(true);
    expect(verify(VECTOR.secret, { ...headers, 'webhook-signature': VECTOR.signature.replace('v1,', 'v2,') }, VECTOR.body, VECTOR.timestamp)).toBe(false);
    for (const missing of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(verify(VECTOR.secret, { ...headers, [missing]: undefined }, VECTOR.body, VECTOR.timestamp)).toBe(false);
  });

  it('refuse a delivery older or newer than the tolerance', () => {
    const headers = signedHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    expect(verify(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp + TOLERANCE_S)).toBe(true);
    expect(verify(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp + TOLERANCE_S + 1)).toBe(false);
    expect(verify(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp - TOLERANCE_S - 1)).toBe(false);
  });

  it('make secrets of the specification’s form, each its own', () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(isSecret(a)).toBe(true);
    expect(newSecret()).not.toBe(a);
    for (const bad of ['', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_c2hvcnQ=', 'whsec_not base64!', `whsec_${Buffer.alloc(65).toString('base64')}`]) {
      expect([bad, isSecret(bad)]).toEqual([bad, false]);
    }
    expect(() => signature('whsec_c2hvcnQ=', 'msg', 1, '')).toThrow(/not a webhook secret/);
  });
});
