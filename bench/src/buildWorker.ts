// Bundles a benchmark entry exactly as a deploy would (wrangler deploy --dry-run), as the one ES
// module workerd loads.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);

/** The project's root folder. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** wrangler's own entry, run with this Node (24) so a system Node 20 never gets in the way. */
export const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

/**
 * Environment of every wrangler child: no telemetry, no prompts, and no NODE_ENV (vitest sets
 * "test"), so wrangler deploy builds for production as it does from a plain shell.
 */
export const wranglerEnv = (): NodeJS.ProcessEnv => {
  const { NODE_ENV: _, ...env } = process.env;
  return { ...env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
};

/** What a build produced. */
export interface BuiltWorker {
  /** The bundled ES module, for Miniflare. */
  scriptPath: string;
  /** The source files that put code in the bundle (esbuild's metafile), relative to the root. */
  inputs: string[];
  bytes: number;
  gzipBytes: number;
}

/**
 * Builds `entry` (relative to the root, e.g. bench/workers/baseline.ts) into `outDir` with wrangler.
 * @example await buildWorker('bench/workers/project.ts', { BENCH_FUNCTIONS: '10' }, '/tmp/bench/p10')
 */
export const buildWorker = async (
  entry: string,
  defines: Record<string, string>,
  outDir: string,
  options: { minify?: boolean } = {},
): Promise<BuiltWorker> => {
  const defineArgs = Object.entries(defines).flatMap(([key, value]) => ['--define', `${key}:${value}`]);
  await run(
    process.execPath,
    [
      WRANGLER,
      'deploy',
      entry,
      '--dry-run',
      '--outdir',
      outDir,
      '-c',
      'bench/workers/wrangler.toml',
      '--metafile',
      join(outDir, 'meta.json'),
      ...defineArgs,
      ...(options.minify === false ? ['--no-minify'] : []),
    ],
    { cwd: ROOT, env: wranglerEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
  const scriptPath = join(outDir, basename(entry).replace(/\.ts$/, '.js'));
  const code = await readFile(scriptPath);
  const meta = JSON.parse(await readFile(join(outDir, 'meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  // A module read but tree-shaken to nothing (a re-export the Worker never uses) is not in the bundle.
  const inputs = Object.values(meta.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([file, { bytesInOutput }]) => (bytesInOutput > 0 ? [file] : [])),
  );
  return {
    scriptPath,
    inputs: [...new Set(inputs)],
    bytes: code.byteLength,
    gzipBytes: gzipSync(code).byteLength,
  };
};
