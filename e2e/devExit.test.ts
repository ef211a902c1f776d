// `npm run dev` leaves no process behind however it ends: Ctrl-C, a kill, a kill -9 of dev itself
// (nothing of dev runs then), wrangler dev crashing under it; and a --port that is taken is refused
// before anything starts.
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, freePort, running, startDev } from '../scripts/test/dev/harness.ts';
import { fixtureProject } from '../scripts/test/project.ts';

const dir = fixtureProject();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** Waits until none of `pids` runs; returns those still running after `timeoutMs`. */
const survivors = async (pids: number[], timeoutMs = 15_000): Promise<string[]> => {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(running) && Date.now() < deadline) await sleep(200);
  return pids.filter(running).map((pid) => `${pid} ${commandOf(pid)}`);
};

const ends: Array<[string, (dev: { pid: number }, children: number[]) => void]> = [
  ['Ctrl-C (SIGINT to the terminal’s whole foreground group)', ({ pid }) => process.kill(-pid, 'SIGINT')],
  ['kill (SIGTERM to dev alone)', ({ pid }) => process.kill(pid, 'SIGTERM')],
  ['kill -9 (SIGKILL to dev alone: no code of dev runs)', ({ pid }) => process.kill(pid, 'SIGKILL')],
  [
    'a crash of wrangler dev under it',
    (_, children) => {
      const wrangler = children.find((pid) => /wrangler(\.js)? dev\b/.test(commandOf(pid)));
      if (!wrangler) throw new Error(`no wrangler dev among ${children.map(commandOf).join('\n')}`);
      process.kill(wrangler, 'SIGKILL');
    },
  ],
];

describe('npm run dev leaves no process behind', () => {
  for (const [how, end] of ends) {
    it(`after ${how}`, async () => {
      const dev = await startDev(dir);
      try {
        await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/, 180_000);
        const children = descendants(dev.pid);
        expect(children.map(commandOf).join('\n')).toMatch(/workerd/);
        end(dev, children);
        await Promise.race([dev.exited(), sleep(15_000)]);
        expect(await survivors(children)).toEqual([]);
      } finally {
        await dev.stop();
      }
    }, 240_000);
  }

  it('after SIGINT to the npm run dev process alone (npm hands it to dev)', async () => {
    const dev = await startDev(dir, { npm: true });
    try {
      await dev.waitFor(/edit functions\/ or events\/ and it re-syncs/, 180_000);
      const children = descendants(dev.pid);
      expect(children.map(commandOf).join('\n')).toMatch(/workerd/);
      process.kill(dev.pid, 'SIGINT');
      await Promise.race([dev.exited(), sleep(15_000)]);
      expect(await survivors([dev.pid, ...children])).toEqual([]);
    } finally {
      await dev.stop();
    }
  }, 240_000);
});

describe('npm run dev, when the Worker’s port is taken', () => {
  it('refuses a --port that another program holds, says which, and leaves nothing behind', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const dev = await startDev(dir, { port });
      const seen: number[] = [];
      const watch = setInterval(() => seen.push(...descendants(dev.pid).filter((pid) => !seen.includes(pid))), 100);
      const code = await Promise.race([dev.exited(), sleep(60_000).then(() => 'still running')]);
      clearInterval(watch);
      await dev.stop();
      expect(code).toBe(1);
      expect(dev.output()).toContain(`Port ${port} (--port) is taken by another program.`);
      expect(dev.output()).not.toMatch(/serves nothing/);
      expect(await survivors(seen)).toEqual([]);
    } finally {
      holder.close();
    }
  }, 120_000);
});
