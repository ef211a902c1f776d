import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsdown';
import { writeTemplate } from './init/template.ts';

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
  {
    ...common,
    entry: { bin: 'bin.ts' },
    dts: false,
    clean: true,
    // After the commands' build, dist/template/ gets the example project of the repository's root,
    // which `agent-functions init` copies (init/template.ts says which root files are the project's).
    hooks: {
      'build:done': ({ options }) => {
        writeTemplate(fileURLToPath(new URL('..', import.meta.url)), `${options.outDir}/template`);
      },
    },
  },
  {
    ...common,
    entry: { 'platform/index': 'platform/index.ts', 'platform/emulator': 'platform/emulator.ts' },
    tsconfig: 'tsconfig.build.json',
    dts: { generator: 'oxc' },
    clean: false,
  },
]);
