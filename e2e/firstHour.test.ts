// The first hour of a newcomer, end to end, as the README walks it: a copy of the repository as a
// clone has it (the files git tracks or would add, nothing built or installed), npm install, npm
// run dev, the first call, npm run new and the new function's description, dev's sync of it and
// the agent's call, an event sent through the local platform and handled, Ctrl-C, and npm test.
// It times `npm run dev` to the first call and `npm run new` to the new function called, and
// writes both to test-results/first-hour.json. Slow by nature: an install and a full npm test.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPlatformClient } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLACEHOLDER_DESCRIPTION } from '../scripts/project/templates.ts';
import { descendants, freePort, running } from '../scripts/test/dev/harness.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { userEnv } from './userShell.ts';

const MINUTE = 60_000;
const NAME = 'lookup_warranty';
const DESCRIPTION =
  'Answers whether a product is still under warranty. Call it when the customer asks about a warranty or a repair.';

let dir: string;
/** Runs a command line in the copy as the user types it; exit code and everything it printed. */
const sh = (command: string, minutes = 5) => {
  const result = spawnSync('sh', ['-c', command], {
    cwd: dir,
    env: userEnv(),
    encoding: 'utf8',
    timeout: minutes * MINUTE,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, output: `$ ${command}\n${result.stdout}${result.stderr}` };
};

let dev: ChildProcess | undefined;
let devOutput = '';
let consolePort = 0;
const waitFor = async (pattern: RegExp, timeoutMs = 2 * MINUTE): Promise<RegExpExecArray> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(devOutput);
    if (match) return match;
    if (Date.now() > deadline || dev?.exitCode !== null) throw new Error(`dev never printed ${pattern}:\n${devOutput}`);
    await sleep(200);
  }
};
const platform = () => {
  const [, baseUrl = '', apiKey = ''] = /local platform on (\S+) \(Agency account key: (\S+)\)/.exec(devOutput) ?? [];
  return createPlatformClient({ baseUrl, apiKey });
};
const times: Record<string, number> = {};

beforeAll(() => {
  // What a clone holds: the files git tracks, and those it would add (this run's own changes).
  dir = mkdtempSync(join(tmpdir(), 'agent-functions-first-hour-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  for (const path of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(PROJECT_ROOT, path))) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(PROJECT_ROOT, path), join(dir, path));
  }
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=Newcomer', '-c', 'user.email=newcomer@example.com', ...args], { cwd: dir });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'as cloned');
});

afterAll(async () => {
  mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, 'test-results', 'first-hour.json'), `${JSON.stringify(times, null, 2)}\n`);
  try {
    if (dev?.pid) process.kill(-dev.pid, 'SIGKILL');
  } catch {
    // Ended already, as it should have.
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the first hour, as the README walks it', () => {
  it(
    'installs with npm install (from the lockfile, offline when the cache has it)',
    () => {
      expect(existsSync(join(dir, 'node_modules'))).toBe(false);
      const started = Date.now();
      const install = sh('npm install --prefer-offline --no-audit --no-fund', 10);
      times.installSeconds = Math.round((Date.now() - started) / 1000);
      expect(install.status, install.output.slice(-4000)).toBe(0);
    },
    12 * MINUTE,
  );

  it(
    'npm run dev: the first call it prints answers 200',
    async () => {
      const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
      consolePort = ports[3] as number;
      const started = Date.now();
      dev = spawn(
        'sh',
        [
          '-c',
          `npm run dev -- --port ${ports[0]} --inspector-port ${ports[1]} --platform-port ${ports[2]} --console-port ${ports[3]}`,
        ],
        { cwd: dir, env: userEnv(), detached: true },
      );
      dev.stdout?.setEncoding('utf8').on('data', (chunk: string) => (devOutput += chunk));
      dev.stderr?.setEncoding('utf8').on('data', (chunk: string) => (devOutput += chunk));
      await waitFor(/edit functions\/ or events\/ and it re-syncs/, 4 * MINUTE);
      const line = (await waitFor(/^ {2}(npm run platform -- call .*)$/m))[1] as string;
      const call = sh(line);
      times.devToFirstCallSeconds = Math.round((Date.now() - started) / 100) / 10;
      expect(call.output).toMatch(/^200 in \d+ ms$/m);
      expect(call.status).toBe(0);
    },
    6 * MINUTE,
  );

  it(
    'npm run new, a description written in: dev syncs it and the agent’s call answers 200',
    async () => {
      const started = Date.now();
      const created = sh(`npm run new -- ${NAME}`);
      expect(created.status, created.output).toBe(0);
      const file = join(dir, 'functions', `${NAME}.ts`);
      writeFileSync(file, readFileSync(file, 'utf8').replace(PLACEHOLDER_DESCRIPTION, DESCRIPTION));
      await waitFor(new RegExp(`\\+ create +${NAME}`));
      const call = sh(
        `npm run platform -- call ${NAME} '{"question": "Is my kettle still covered?"}' --account agency`,
      );
      times.newToNewFunctionCalledSeconds = Math.round((Date.now() - started) / 100) / 10;
      expect(call.output).toMatch(/^200 in \d+ ms$/m);
      const registered = (await platform().customFunctions.list()).find((fn) => fn.name === NAME);
      expect(registered?.description).toContain(DESCRIPTION);
    },
    4 * MINUTE,
  );

  it(
    'an event sent through the local platform reaches its handler, and the console shows it with the message it sent',
    async () => {
      const [contact] = await platform().contacts.list();
      const emitted = sh(
        `npm run platform -- emit appointment.booked '{"appointment": {"id": "apt_1", "contactId": "${contact?.id}", "startsAt": "2026-12-01T10:30:00Z"}}' --account agency`,
      );
      expect(emitted.status, emitted.output).toBe(0);
      await waitFor(/"event":"confirmation_sent"/, MINUTE);
      await waitFor(/"event":"event_handled"/);
      // The console shows the delivery, and beside it the confirmation its handler sent.
      type Shown = { kind: string; type?: string; messages?: { text?: string }[]; handling?: { event: string }[] };
      await vi.waitFor(
        async () => {
          const { items } = (await (await fetch(`http://127.0.0.1:${consolePort}/api/activity`)).json()) as {
            items: Shown[];
          };
          const delivery = items.find((item) => item.kind === 'delivery' && item.type === 'appointment.booked');
          expect(delivery?.messages?.map((message) => message.text)).toEqual([expect.stringContaining('is confirmed')]);
          // How the handler took it, from the Worker's own log line.
          expect(delivery?.handling?.map((handled) => handled.event)).toEqual(['event_handled']);
        },
        { timeout: 20_000, interval: 500 },
      );
    },
    3 * MINUTE,
  );

  it(
    'Ctrl-C ends dev and everything it started',
    async () => {
      const pid = dev?.pid as number;
      const children = descendants(pid);
      expect(children.length).toBeGreaterThan(0);
      process.kill(-pid, 'SIGINT');
      const deadline = Date.now() + 20_000;
      while (children.some(running) && Date.now() < deadline) await sleep(200);
      expect(children.filter(running)).toEqual([]);
    },
    MINUTE,
  );

  it(
    'the files the docs have you fill with keys stay out of git, and npm run openapi’s file out of the lint',
    () => {
      for (const [from, to] of [
        ['.env.example', '.env'],
        ['.env.example', '.env.staging'],
        ['.dev.vars.example', '.dev.vars'],
      ]) {
        copyFileSync(join(dir, from as string), join(dir, to as string));
      }
      const openapi = sh('npm run openapi');
      expect(openapi.status, openapi.output).toBe(0);
      expect(existsSync(join(dir, 'openapi.json'))).toBe(true);
      const status = sh('git status --porcelain --untracked-files=all');
      expect(status.output.split('\n').slice(1).filter(Boolean).sort()).toEqual([
        `?? functions/${NAME}.ts`,
        `?? test/functions/${NAME}.test.ts`,
      ]);
    },
    3 * MINUTE,
  );

  it(
    'npm test passes, the new function’s test among them',
    () => {
      const test = sh('npm test', 15);
      expect(test.status, test.output.slice(-6000)).toBe(0);
      expect(test.output).toContain(`test/functions/${NAME}.test.ts`);
    },
    16 * MINUTE,
  );
});
