// Which files of the project would break the Worker's build, with esbuild's own message, or would
// break the Worker as it loads them (z.strng(): it builds, then throws at the module's top level,
// and workerd would not start at all). Under `npm run dev` the registry leaves a broken function
// file out, so the other functions are still served; a broken file that the Worker's entry imports
// cannot be left out, and dev says so.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BuildFailure, build, formatMessages, type Plugin } from 'esbuild';
import { workerMain } from './paths.ts';

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

// The runtime's own modules, for loading a function file in Node: any export is an empty class, so
// a file that extends DurableObject or reads env loads, and only its own mistakes throw.
const runtimeStub: Plugin = {
  name: 'runtime-stub',
  setup: (esbuild) => {
    esbuild.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: 'runtime-stub' }));
    esbuild.onLoad({ filter: /.*/, namespace: 'runtime-stub' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? false : class {}) });",
      loader: 'js',
    }));
  },
};

/**
 * Loads a built function file in Node (packages from the project's node_modules) and returns what
 * its top level threw, with the place in the file; undefined when it loads, or when what failed is
 * not the file's own code (a package that only loads in workerd, say): the Worker then decides.
 */
const loadError = async (root: string, file: string, code: string): Promise<string | undefined> => {
  if (!existsSync(join(root, 'node_modules'))) return undefined;
  const cache = join(root, 'node_modules', '.cache', 'agent-functions-dev');
  mkdirSync(cache, { recursive: true });
  const module = join(cache, `${file.replace(/[^\w.-]/g, '_')}-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(module, code);
  // A child Node, so the file's top level never runs in dev's own process and a hang is cut short.
  const probe = `try { await import(${JSON.stringify(pathToFileURL(module).href)}); } catch (error) {
    process.stderr.write(JSON.stringify({ name: error?.name, message: String(error?.message ?? error), stack: String(error?.stack ?? '') }));
    process.exit(3);
  }`;
  try {
    const { code: exit, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--enable-source-maps', '--input-type=module', '-e', probe],
        { cwd: root, timeout: 10_000, maxBuffer: 1024 * 1024 },
        (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    if (exit !== 3) return undefined;
    const thrown = JSON.parse(stderr) as { name?: string; message: string; stack: string };
    const place = thrown.stack
      .split('\n')
      .map(framePlace)
      .find((frame) => frame && relative(root, frame.path) === file);
    if (!place) return undefined;
    return `${file}:${place.line}:${place.column}: ${thrown.name ?? 'Error'}: ${thrown.message} (the Worker would fail as it loads this file)`;
  } catch {
    return undefined;
  } finally {
    rmSync(module, { force: true });
  }
};

/**
 * The file, line and column of a stack frame (`at f (/path/a b.ts:2:5)`, `at file:///path/a%20b.ts:2:5`):
 * a path may hold spaces, a file URL percent-escapes (a project folder named "Acme Dental").
 */
const framePlace = (frame: string): { path: string; line: string; column: string } | undefined => {
  const match = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/.exec(frame);
  if (!match) return undefined;
  const [, where = '', line = '', column = ''] = match;
  try {
    return { path: where.startsWith('file://') ? fileURLToPath(where) : where, line, column };
  } catch {
    return undefined;
  }
};

const check = async (root: string, file: string, load = false): Promise<BrokenBuild | undefined> => {
  try {
    const built = await build({
      absWorkingDir: root,
      entryPoints: [file],
      bundle: true,
      write: false,
      // Packages and the runtime's modules are wrangler's business; this finds the project's own mistakes.
      packages: 'external',
      external: ['node:*'],
      platform: 'neutral',
      format: 'esm',
      logLevel: 'silent',
      plugins: [registryExternal, runtimeStub],
      ...(load ? { sourcemap: 'inline' as const, sourceRoot: `${root}/` } : {}),
    });
    const code = built.outputFiles?.[0]?.text;
    const thrown = load && code !== undefined ? await loadError(root, file, code) : undefined;
    return thrown ? { file, message: thrown } : undefined;
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
  (await Promise.all(names.map((name) => check(root, `functions/${name}.ts`, true)))).filter((b) => b !== undefined);

/** The Worker's entry (wrangler.toml `main`) and what it imports, except the registry; undefined when it builds. */
export const brokenEntry = async (root: string): Promise<BrokenBuild | undefined> => {
  return check(root, workerMain(root) ?? 'worker.ts');
};
