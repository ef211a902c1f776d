import { defineConfig } from 'tsdown';

// One output file per source file (unbundle), so a Worker that bundles the package tree-shakes it
// exactly as it would the sources: a feature the Worker does not import stays out of its bundle.
// Declarations come from oxc (isolatedDeclarations in tsconfig.json): fast, and no type resolution
// across packages, so the framework and the CLI build in any order.
export default defineConfig({
  entry: {
    index: 'index.ts',
    worker: 'worker.ts',
    'events/index': 'events/index.ts',
    'platform/index': 'platform/index.ts',
    openapi: 'openapi.ts',
    'mcp/index': 'mcp/index.ts',
    'conversations/index': 'conversations/index.ts',
    'accounts/index': 'accounts/index.ts',
    'approval/index': 'approval/index.ts',
    'metrics/index': 'metrics/index.ts',
    'testing/index': 'testing/index.ts',
    internal: 'internal.ts',
  },
  unbundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2024',
  tsconfig: 'tsconfig.build.json',
  dts: { generator: 'oxc' },
  deps: { neverBundle: [/^cloudflare:/] },
  clean: true,
  // No constant inlining across modules: it leaves bare imports (`import './define.js'`) that the
  // Worker's bundler then warns about on every deploy; the Worker's own build minifies anyway.
  inputOptions: { optimization: { inlineConst: false } },
  logLevel: 'warn',
});
