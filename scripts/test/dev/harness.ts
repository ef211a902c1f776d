// Runs `npm run dev` for real (the Worker under wrangler dev, the local platform, the store
// stand-in, the console) in a throw-away copy of the project (../project.ts), on free ports, and
// reads its output.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../repo.ts';

/**
 * What the README tells a newcomer to do: cp .env.example .env (filled in for sync, with the
 * deployed Worker's secret and a real platform key) and cp .dev.vars.example .dev.vars.
 */
export const newcomerFiles = (): Record<string, string> => {
  const example = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8');
  return {
    '.env': `${example('.env.example')}\nFUNCTIONS_SECRET=q3Jx9vT0bq8hV1dYl2mKc7pR5sWz4nA6\nPLATFORM_API_KEY=real-platform-key\n`,
    '.dev.vars': example('.dev.vars.example'),
  };
};

/** A port nothing listens on right now. */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

export interface DevRun {
  dir: string;
  origin: string;
  /** dev's own process id (a process group of its own, as a terminal's foreground job). */
  pid: number;
  /** Everything dev (and wrangler under it) printed so far, stdout and stderr together. */
  output(): string;
  /** POSTs `args` to function `name` of the local Worker, without a key; status and JSON body. */
  post(name: string, args: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Waits until the output matches, and returns the match. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Starts `agent-functions dev` in `dir`, as `npm run dev` does, on free ports (or on `options.port`);
 * with `npm: true` through `npm run dev` itself (then `pid` is npm's).
 */
export const startDev = async (dir: string, options: { port?: number; npm?: boolean } = {}): Promise<DevRun> => {
  const [port, inspector, platform, consolePort] = [
    options.port ?? (await freePort()),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const command = options.npm
    ? ['npm', 'run', 'dev', '--']
    : [process.execPath, join(dir, 'node_modules', '.bin', 'agent-functions'), 'dev'];
  const child: ChildProcess = spawn(
    command[0] as string,
    [
      ...command.slice(1),
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--platform-port',
      String(platform),
      '--console-port',
      String(consolePort),
    ],
    {
      cwd: dir,
      env: { ...process.env, PATH: `${join(dir, 'node_modules', '.bin')}:${process.env.PATH}`, NO_COLOR: '1' },
      detached: true,
    },
  );
  let text = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    dir,
    pid: child.pid as number,
    origin: `http://127.0.0.1:${port}`,
    output: () => text,
    post: async (name, args) => {
      const response = await fetch(`http://127.0.0.1:${port}/functions/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    waitFor: async (pattern, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(text);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`dev never printed ${pattern}; it printed:\n${text}`);
        }
        await sleep(200);
      }
    },
    exited: () => exit,
    stop: async () => {
      const signal = (name: NodeJS.Signals) => {
        try {
          if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, name);
        } catch {
          // Its group is gone already.
        }
      };
      signal('SIGINT');
      await Promise.race([exit, sleep(10_000)]);
      signal('SIGKILL');
    },
  };
};

/** Every process below `pid` (children, grandchildren, ...), from /proc. */
export const descendants = (pid: number): number[] => {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (name) state ppid ...": the name may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, ppid] of parentOf) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
};

/** Whether `pid` still runs (a zombie, waiting to be reaped, does not). */
export const running = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};
