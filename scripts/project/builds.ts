// Which files of the project would break the Worker's build, with esbuild's own message. Under
// `npm run dev` the registry leaves a broken function file out, so the other functions are still
// served; a broken file that the Worker's entry imports cannot be left out, and dev says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildFailure, build, formatMessages, type Plugin } from 'esbuild';

/** A file that does not build, and esbuild's message (file, line, column, what is wrong). */
export interface BrokenBuild {
  file: string;
  message: string;
}

// The generated registry is checked through each function file instead.
const registryExternal: Plugin = {
  name: 'registry-external',
  setup: (esbuild) => {
    esbuild.onResolve({ filter: /(^|\/)generated\// }, (args) => ({ path: args.path, external: true }));
  },
};

const check = async (root: string, file: string): Promise<BrokenBuild | undefined> => {
  try {
    await build({
      absWorkingDir: root,
      entryPoints: [file],
      bundle: true,
      write: false,
      // Packages and the runtime's modules are wrangler's business; this finds the project's own mistakes.
      packages: 'external',
      external: ['cloudflare:*', 'node:*'],
      platform: 'neutral',
      format: 'esm',
      logLevel: 'silent',
      plugins: [registryExternal],
    });
    return undefined;
  } catch (error) {
    const errors = (error as BuildFailure).errors ?? [];
    const text = await formatMessages(errors, { kind: 'error', color: false });
    return { file, message: text.join('').trim() || String(error) };
  }
};

/**
 * The function files (by name) that do not build.
 * @example await brokenFunctions('/repo', ['lookup_warranty']) // [{ file: 'functions/lookup_warranty.ts', message: '...' }]
 */
export const brokenFunctions = async (root: string, names: string[]): Promise<BrokenBuild[]> =>
  (await Promise.all(names.map((name) => check(root, `functions/${name}.ts`)))).filter((b) => b !== undefined);

/** The Worker's entry (wrangler.toml `main`) and what it imports, except the registry; undefined when it builds. */
export const brokenEntry = async (root: string): Promise<BrokenBuild | undefined> => {
  const main = /^main\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, 'wrangler.toml'), 'utf8'))?.[1] ?? 'worker.ts';
  return check(root, main);
};
