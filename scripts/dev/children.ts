// wrangler dev and everything it starts (workerd, esbuild) run in a process group of their own, so
// dev ends all of them at once on every way out: Ctrl-C, a kill, its own crash, wrangler's crash.
// A kill -9 of dev runs none of dev's code, so a small guard process (its own group too) holds a
// pipe from dev and ends the group when that pipe closes, which the kernel does whenever dev dies.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

// Runs as `node -e GUARD <group>`: waits for its stdin (dev's pipe) to close, then ends the group.
const GUARD = `
const group = Number(process.argv[1]);
const signal = (name) => { try { process.kill(-group, name); return true; } catch { return false; } };
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => {});
const end = () => {
  if (!signal('SIGTERM')) process.exit(0);
  setTimeout(() => { signal('SIGKILL'); process.exit(0); }, 3000);
};
process.stdin.on('data', () => {});
process.stdin.on('end', end);
process.stdin.on('error', end);
setInterval(() => { if (!signal(0)) process.exit(0); }, 2000);
`;

/** Whether any process of group `pgid` still runs. */
const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts `command` as the leader of a new process group (stdin closed; its output dev's own, or
 * piped to dev with `output: 'pipe'`), with a guard that ends the group if dev dies without doing so.
 * @example const worker = spawnGroup('wrangler', ['dev'], { cwd: root, env })
 */
export const spawnGroup = (
  command: string,
  args: string[],
  options: SpawnOptions & { output?: 'inherit' | 'pipe' },
): ChildProcess => {
  const { output = 'inherit', ...rest } = options;
  const child = spawn(command, args, { ...rest, detached: true, stdio: ['ignore', output, output] });
  if (child.pid !== undefined) {
    const guard = spawn(process.execPath, ['-e', GUARD, String(child.pid)], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    guard.on('error', () => {});
    guard.unref();
    (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }
  return child;
};

/**
 * Ends the group `child` leads: SIGINT (wrangler stops workerd itself), then SIGKILL for whatever
 * is left after `graceMs`.
 */
export const endGroup = async (child: ChildProcess | undefined, graceMs = 5000): Promise<void> => {
  const pgid = child?.pid;
  if (pgid === undefined || !groupAlive(pgid)) return;
  try {
    process.kill(-pgid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
};
