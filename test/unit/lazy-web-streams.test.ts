// The stand-in for `node:stream/web` in the bundles answers `instanceof` as the real class does.
import { Readable } from 'node:stream';
import { ReadableStream as Real } from 'node:stream/web';
import { describe, expect, it } from 'vitest';
import { ReadableStream } from '#lib/http/lazy-web-streams.js';

describe('the lazy ReadableStream', () => {
  it('recognizes web streams and nothing else', () => {
    expect(new Real() instanceof ReadableStream).toBe(true);
    expect(Readable.toWeb(Readable.from(['a'])) instanceof ReadableStream).toBe(true);
    for (const other of [Readable.from(['a']), 'text', {}, null, undefined, 1]) expect(other instanceof ReadableStream).toBe(false);
  });
});
