import { defineConfig } from 'tsdown';

// One output file per source file (unbundle), so each command still loads only its own modules,
// with declarations for the library subpath (the local platform) from the TypeScript compiler.
export default defineConfig({
  entry: { bin: 'bin.ts', 'platform/index': 'platform/index.ts', 'platform/emulator': 'platform/emulator.ts' },
  unbundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  fixedExtension: false,
  dts: { generator: 'tsc' },
  clean: true,
  logLevel: 'warn',
});
