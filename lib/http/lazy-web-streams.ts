// Stands in for `node:stream/web` in the function bundles (infra/bundling.ts). middy's core imports
// it at its top for `instanceof ReadableStream` in its streaming mode, which no answer here uses;
// the real module costs about 3 ms of every cold start to load. The global `ReadableStream` loads
// the same module on first use, so the check still holds should a stream ever be answered.
export const ReadableStream = {
  [Symbol.hasInstance]: (value: unknown): boolean => value instanceof globalThis.ReadableStream,
};
