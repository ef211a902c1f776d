// The Worker under `npm run dev`: wrangler dev in a process group of its own (children.ts), given
// dev's settings, its output printed as it comes and fed to the Worker's log (the console reads
// calls from every source and deliveries handled there).
import type { ChildProcess } from 'node:child_process';
import { spawnGroup } from './children.ts';
import { type MapCache, sourceMapped } from './sourceMapped.ts';
import type { WorkerLog } from './workerLog.ts';
import { wranglerOutput } from './wranglerOutput.ts';

/** What regenerates worker-configuration.d.ts in a project of agent functions (package.json's generate). */
const TYPES_COMMAND = 'npm run generate';

export interface WranglerDevOptions {
  root: string;
  /** What dev wires itself (`--var NAME:value`, which wins over .dev.vars). */
  vars: Record<string, string>;
  /** wrangler's own flags, passed through. */
  args: string[];
  workerLog: WorkerLog;
}

/**
 * Starts `wrangler dev` in the project at `root`.
 * @example const worker = startWranglerDev({ root, vars: settings.vars, args: ['--port', '8787'], workerLog });
 */
export const startWranglerDev = ({ root, vars, args, workerLog }: WranglerDevOptions): ChildProcess => {
  const wireVars = Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const worker = spawnGroup('wrangler', ['dev', ...wireVars, ...args], {
    cwd: root,
    env: {
      ...process.env,
      // No Request.cf lookup: it reaches out to the network at every start, and only warns when offline.
      CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false',
      // No telemetry, and no banner about it (wrangler.toml's send_metrics = false still shows it).
      WRANGLER_SEND_METRICS: 'false',
      // .env holds sync's settings (scripts/local/vars.ts); .dev.vars is still read.
      CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'false',
      // The registries leave out a function file that does not build (scripts/project/generated.ts).
      AGENT_FUNCTIONS_DEV: '1',
      // A build for development whatever the shell says: a NODE_ENV=production build has no
      // development mode, so the keyless local Worker would answer 503 (src/env.ts).
      NODE_ENV: 'development',
      // Its output passes through dev (below): keep wrangler's colours where dev has a terminal.
      ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
    },
    output: 'pipe',
  });
  // A handler's error names its place in the project's file, not in wrangler's bundle (sourceMapped.ts).
  const sourceMaps: MapCache = new Map();
  const mapped = (chunk: Buffer): string =>
    chunk.includes('"at":"file:') ? sourceMapped(chunk.toString(), root, sourceMaps) : chunk.toString();
  // The bindings table once, and the project's command for wrangler's types advice (wranglerOutput.ts).
  const [out, err] = [wranglerOutput(TYPES_COMMAND), wranglerOutput(TYPES_COMMAND)];
  worker.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(out.feed(mapped(chunk)));
    workerLog.feed(chunk);
  });
  worker.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(err.feed(mapped(chunk)));
    workerLog.feed(chunk);
  });
  return worker;
};
