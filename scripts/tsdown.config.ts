import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsdown';
import { writeTemplate } from './init/template.ts';

// One output file per source file (unbundle), so each command still loads only its own modules.
// The JavaScript comes from one build of every entry, so a module two entries share is written once
// and whole; a second build writes only the declarations of the library subpaths (the local
// platform, dev.config.ts's API), from oxc: those modules state their types (isolatedDeclarations),
// so no type-checker runs in the build.
const common = {
  unbundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  root: '.',
  fixedExtension: false,
  logLevel: 'warn',
} as const;

const library = {
  'platform/index': 'platform/index.ts',
  'platform/emulator': 'platform/emulator.ts',
  'dev/index': 'dev/index.ts',
  'lint/index': 'lint/index.ts',
  vitestSetup: 'vitestSetup.ts',
};

export default defineConfig([
  {
    ...common,
    entry: { bin: 'bin.ts', ...library },
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
    entry: library,
    tsconfig: 'tsconfig.build.json',
    dts: { generator: 'oxc', emitDtsOnly: true },
    clean: false,
  },
]);
