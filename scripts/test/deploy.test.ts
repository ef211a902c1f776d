// `npm run deploy` on a fresh Cloudflare account: wrangler creates KV namespaces on its own, but not
// queues, so the first deploy of a project with events failed. It now ensures every queue of the
// environment (creating the missing ones, or saying exactly what to run), and names the
// environment, so wrangler never warns that none was given.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DeployIo, queuesOf, runDeploy } from '../deploy/main.ts';
import { PROJECT_ROOT } from './repo.ts';

type Call = readonly string[];

/** Runs the command with a stand-in wrangler whose account holds `existing` queues. */
const run = async (argv: string[], existing: string[] | 'logged-out' = []) => {
  let out = '';
  let err = '';
  const calls: Call[] = [];
  const queues = new Set(existing === 'logged-out' ? [] : existing);
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const io: DeployIo = {
    root: PROJECT_ROOT,
    stdout: sink((t) => (out += t)),
    stderr: sink((t) => (err += t)),
    generate: async () => 0,
    wrangler: async (args) => {
      calls.push(args);
      if (existing === 'logged-out' && args[0] === 'queues') {
        return {
          code: 1,
          stdout: '',
          stderr:
            "✘ [ERROR] In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN environment variable for wrangler to work.",
        };
      }
      const [group, verb, name = ''] = args;
      if (group === 'queues' && verb === 'info') {
        return queues.has(name)
          ? { code: 0, stdout: `Queue Name: ${name}`, stderr: '' }
          : { code: 1, stdout: '', stderr: `✘ [ERROR] Queue "${name}" does not exist.` };
      }
      if (group === 'queues' && verb === 'create') {
        queues.add(name);
        return { code: 0, stdout: `Created queue ${name}.`, stderr: '' };
      }
      return { code: 0, stdout: '', stderr: '' };
    },
  };
  const code = await runDeploy(argv, io);
  return { code, out, err, calls, queues };
};

beforeAll(async () => {
  await import('wrangler');
}, 60_000);

describe('npm run deploy', () => {
  it('is the command that ensures the queues, in package.json and so in the release workflow', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.deploy).toBe('agent-functions deploy');
    const release = readFileSync(join(PROJECT_ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
    expect(release).toContain('npm run deploy -- "$@"');
  });

  it("reads the environment's queues from wrangler.toml: producers, consumers and dead letters", async () => {
    expect(await queuesOf(PROJECT_ROOT, undefined)).toEqual(['agent-functions-events', 'agent-functions-events-dlq']);
    expect(await queuesOf(PROJECT_ROOT, 'staging')).toEqual([
      'agent-functions-events-staging',
      'agent-functions-events-staging-dlq',
    ]);
  });

  it('creates the missing queues on a fresh account, then deploys production by name (--env=)', async () => {
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.calls).toEqual([
      ['queues', 'info', 'agent-functions-events'],
      ['queues', 'create', 'agent-functions-events'],
      ['queues', 'info', 'agent-functions-events-dlq'],
      ['queues', 'create', 'agent-functions-events-dlq'],
      ['deploy', '--env='],
    ]);
    expect(result.out).toContain('Created the queue agent-functions-events');
  });

  it('creates nothing when the queues exist, and passes the flags it does not know to wrangler deploy', async () => {
    const result = await run(
      ['--env', 'staging', '--minify', '--outdir', 'dist'],
      ['agent-functions-events-staging', 'agent-functions-events-staging-dlq'],
    );
    expect(result.code).toBe(0);
    expect(result.calls.filter((call) => call[1] === 'create')).toEqual([]);
    expect(result.calls.at(-1)).toEqual(['deploy', '--env', 'staging', '--minify', '--outdir', 'dist']);
  });

  it('--dry-run needs no account: it leaves the queues alone and builds with wrangler', async () => {
    const result = await run(['--dry-run'], 'logged-out');
    expect(result.code).toBe(0);
    expect(result.calls).toEqual([['deploy', '--env=', '--dry-run']]);
  });

  it('says exactly what to run, and deploys nothing, when it cannot reach the account', async () => {
    const result = await run([], 'logged-out');
    expect(result.code).toBe(1);
    expect(result.calls.some((call) => call[0] === 'deploy')).toBe(false);
    expect(result.err).toContain('CLOUDFLARE_API_TOKEN');
    expect(result.err).toContain('npx wrangler queues create agent-functions-events\n');
    expect(result.err).toContain('npx wrangler queues create agent-functions-events-dlq\n');
  });

  it('--queues only ensures the queues (a preflight), without deploying', async () => {
    const result = await run(['--queues']);
    expect(result.code).toBe(0);
    expect(result.calls.some((call) => call[0] === 'deploy')).toBe(false);
    expect([...result.queues].sort()).toEqual(['agent-functions-events', 'agent-functions-events-dlq']);
  });
});
