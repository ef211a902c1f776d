import { defineConfig } from 'tsdown';

// One output file per source file (unbundle), so each command still loads only its own modules.
// Declarations only for the library subpath (the local platform), from oxc: the modules it reaches
// state their types (isolatedDeclarations), so no type-checker runs in the build.
const common = {
  unbundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  root: '.',
  fixedExtension: false,
  logLevel: 'warn',
} as const;

export default defineConfig([
  { ...common, entry: { bin: 'bin.ts' }, dts: false, clean: true },
  {
    ...common,
    entry: { 'platform/index': 'platform/index.ts', 'platform/emulator': 'platform/emulator.ts' },
    tsconfig: 'tsconfig.build.json',
    dts: { generator: 'oxc' },
    clean: false,
  },
]);
