// Which runtime runs every function and how it is bundled for it: one place, read by the stack
// (NodejsFunction's runtime and bundling) and by whatever needs to reproduce a bundle (the bundle
// test, the cold-start benchmark).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The repository root: handler module paths in `lib/contract/operations.ts` are relative to it. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Modules replaced in every bundle, relative to the repository root (esbuild's working directory).
 * The SDK's default credential chain gives way to the environment credentials Lambda provides, and
 * Node's web streams, which only middy's streaming mode would use, load when first used.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './lib/runtime/lambda-credentials.ts',
  'node:stream/web': './lib/http/lazy-web-streams.ts',
};

/** ESM bundles have no `require`; some bundled CommonJS dependencies still call it. */
export const BUNDLE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** The Lambda runtime of every function; the bundles are built for its Node version. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

function nodeMajor(runtime: string): number {
  const m = /^nodejs(\d+)\.x$/.exec(runtime);
  if (!m) throw new Error(`Not a Node.js Lambda runtime: ${runtime}`);
  return Number(m[1]);
}

/** The runtime's Node major version (`nodejs24.x` -> 24): the bundle test runs the bundles on it. */
export const LAMBDA_NODE_MAJOR = nodeMajor(LAMBDA_RUNTIME.name);

export const BUNDLE_TARGET = `node${LAMBDA_NODE_MAJOR}`;
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];

export function nodejsBundling(): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: BUNDLE_TARGET,
    minify: true,
    sourceMap: true,
    sourcesContent: false,
    mainFields: BUNDLE_MAIN_FIELDS,
    banner: BUNDLE_BANNER,
    // Nothing is external, not even the AWS SDK v3 that the runtime ships: we run the version
    // pinned in package-lock.json (not whatever the runtime has that day), and one tree-shaken
    // file loads faster on a cold start than resolving the runtime's copy from node_modules.
    externalModules: [],
    esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
    // There is no Docker here: the local esbuild from package.json bundles everything.
    forceDockerBundling: false,
  };
}

/** The same bundle through esbuild's API (for tests and benchmarks that build one function). */
export function esbuildOptions(entry: string) {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: [path.resolve(REPO_ROOT, entry)],
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: BUNDLE_TARGET,
    minify: true,
    mainFields: BUNDLE_MAIN_FIELDS,
    banner: { js: BUNDLE_BANNER },
    alias: { ...BUNDLE_ALIASES },
  };
}
