// Webhook message types and the patterns subscriptions list; the SigV4 signing of the queue's
// SQS calls, against AWS's published test suite.
import { describe, expect, it } from 'vitest';
import { matchesAny, patternError, WEBHOOK_ACTION_OF } from '#lib/domain/webhook-events.js';
import { signV4 } from '#lib/stream/aws-json.js';
import { messageGroup, messageId, messageType } from '#lib/stream/webhook-trigger.js';

describe('webhook patterns', () => {
  it('take <kind>.<action>, <kind>.*, *.<action> and *, and nothing else', () => {
    for (const ok of ['*', 'event.created', 'venue.*', '*.deleted', 'tag.updated', 'category.*', 'organizer.deleted']) expect(patternError(ok), ok).toBeUndefined();
    for (const bad of ['event', 'event.trashed', 'person.created', '*.*.*', 'event.created ', '', 'EVENT.created', 'event.*x']) expect(patternError(bad), bad).toBeDefined();
    expect(patternError(3)).toBe('must be a string');
  });

  it('match message types', () => {
    expect(matchesAny(['*'], 'tag.deleted')).toBe(true);
    expect(matchesAny(['venue.*'], 'venue.updated')).toBe(true);
    expect(matchesAny(['venue.*'], 'event.updated')).toBe(false);
    expect(matchesAny(['*.deleted'], 'event.deleted')).toBe(true);
    expect(matchesAny(['*.deleted'], 'event.created')).toBe(false);
    expect(matchesAny(['event.created', 'event.updated'], 'event.deleted')).toBe(false);
    expect(matchesAny([], 'event.created')).toBe(false);
  });

  it('map a trash to a deletion and a restore to a creation, as a mirror sees them', () => {
    expect(WEBHOOK_ACTION_OF).toEqual({ create: 'created', update: 'updated', trash: 'deleted', restore: 'created', delete: 'deleted' });
    expect(messageType({ kind: 'event', action: 'trash' })).toBe('event.deleted');
    expect(messageType({ kind: 'category', action: 'update' })).toBe('category.updated');
  });

  it('give each change one id per subscription, the same whenever the change comes again', () => {
    const a = messageId('stream-record-1', 'hook-a');
    expect(a).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
    expect(messageId('stream-record-1', 'hook-a')).toBe(a);
    expect(messageId('stream-record-1', 'hook-b')).not.toBe(a);
    expect(messageId('stream-record-2', 'hook-a')).not.toBe(a);
    expect(messageGroup({ webhookId: 'h', lang: 'en', kind: 'event', id: 7 })).toBe('h:en:event:7');
  });
});

describe('SigV4', () => {
  it("signs AWS's get-vanilla request as the test suite does", () => {
    const headers = signV4({
      method: 'GET',
      url: new URL('https://example.amazonaws.com/'),
      headers: {},
      body: '',
      region: 'us-east-1',
      service: 'service',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      amzDate: '20150830T123600Z',
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });
});
