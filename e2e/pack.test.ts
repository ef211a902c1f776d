// The packages as a user gets them: built, packed with `npm pack`, checked by publint, and a new
// project written by the packed CLI's `agent-functions init` (with the examples and without) outside
// the repository, installed from the tarballs (the other dependencies from the registry), in which
// `npm test` and `wrangler deploy --dry-run` pass. Commands run as in a user's shell: no npm run of
// this repository around them and none of its node_modules/.bin on PATH, so npm and `npm install`
// run on the system's Node and the project's own scripts on the Node it installs. Minutes: two full
// installs and both projects' test suites.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newProject } from '../scripts/init/project.ts';
import { templateAt } from '../scripts/init/template.ts';
import { userEnv } from './userShell.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const MINUTE = 60_000;

interface Run {
  status: number | null;
  stdout: string;
  output: string;
}

/** Runs `command` in `cwd` as the user would; stdout and the whole output, for the assertions' messages. */
const run = (command: string, args: string[], cwd: string, minutes = 10): Run => {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd,
    env: userEnv(),
    encoding: 'utf8',
    timeout: minutes * MINUTE,
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = `$ ${command} ${args.join(' ')} (in ${cwd})\n${result.error ?? ''}${result.stdout}${result.stderr}`;
  return { status: result.status, stdout: result.stdout ?? '', output };
};

/** Every file under `dir`, '/'-separated paths relative to it. */
const filesUnder = (dir: string, prefix = ''): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });

interface Packed {
  name: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

let work: string;
let packs: Packed[];
const tarball = (name: string): string => {
  const packed = packs.find((p) => p.name === name);
  if (!packed) throw new Error(`npm pack made no ${name}`);
  return join(work, 'packs', packed.filename);
};
const manifest = (name: string) =>
  JSON.parse(readFileSync(join(REPO, name === 'agent-functions' ? 'src' : 'scripts', 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
    bin?: Record<string, string>;
  };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'agent-functions-pack-'));
  const build = run('npm', ['run', 'build'], REPO);
  expect(build.status, build.output).toBe(0);
  mkdirSync(join(work, 'packs'));
  // The build just ran: packing without the packages' prepare keeps stdout the JSON alone.
  const pack = run(
    'npm',
    ['pack', '-w', 'src', '-w', 'scripts', '--pack-destination', join(work, 'packs'), '--ignore-scripts', '--json'],
    REPO,
  );
  expect(pack.status, pack.output).toBe(0);
  packs = JSON.parse(pack.stdout) as Packed[];
  // The packed CLI, installed as `npx agent-functions-cli` would (wrangler, its peer, is not needed to init).
  const runner = join(work, 'runner');
  mkdirSync(runner);
  writeFileSync(join(runner, 'package.json'), '{ "name": "runner", "private": true }\n');
  const install = run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--omit=peer',
      tarball('agent-functions'),
      tarball('agent-functions-cli'),
    ],
    runner,
  );
  expect(install.status, install.output).toBe(0);
}, 15 * MINUTE);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('packs each package as JavaScript with declarations, its README and package.json, and nothing else', () => {
    expect(packs.map((p) => p.name).sort()).toEqual(['agent-functions', 'agent-functions-cli']);
    for (const packed of packs) {
      const paths = packed.files.map((f) => f.path);
      expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md']));
      const { exports, bin = {} } = manifest(packed.name);
      // Beside dist/, only the bin's stub (scripts/agent-functions.js), which loads dist/bin.js.
      const stubs = Object.values(bin).map((target) => target.replace(/^\.\//, ''));
      const code = paths.filter((path) => path !== 'package.json' && path !== 'README.md');
      expect(code.filter((path) => !path.startsWith('dist/') && !stubs.includes(path))).toEqual([]);
      // The CLI also carries the example project that init copies, under dist/template/.
      const built = code.filter((path) => !path.startsWith('dist/template/'));
      expect(built.filter((path) => !/\.(js|d\.ts)$/.test(path))).toEqual([]);
      expect(built.filter((path) => /(^|\/)(test|tests|fixtures)\//.test(path) || /\.test\./.test(path))).toEqual([]);
      // Every export and bin of package.json is in the tarball.
      const targets = Object.values(exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      );
      for (const target of [...targets, ...Object.values(bin)]) {
        expect(paths, `${packed.name}: ${target}`).toContain(target.replace(/^\.\//, ''));
      }
    }
    const template = packs
      .find((p) => p.name === 'agent-functions-cli')
      ?.files.map((f) => f.path)
      .filter((path) => path.startsWith('dist/template/project/'));
    expect(template).toEqual(
      expect.arrayContaining(['dist/template/project/_gitignore', 'dist/template/project/_npmrc']),
    );
  });

  it.each(['agent-functions', 'agent-functions-cli'])(
    'makes a %s tarball publint finds nothing in, strictly',
    async (name) => {
      const bytes = readFileSync(tarball(name));
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
        strict: true,
      });
      expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg)}`)).toEqual([]);
    },
  );
});

describe.each([
  { variant: 'with the examples', dir: 'shop-functions', args: [] as string[] },
  { variant: 'without the examples', dir: 'bare-functions', args: ['--no-examples'] },
])('a project made by the packed CLI, $variant', ({ dir: name, args }) => {
  let dir: string;
  let written: Map<string, string>;

  beforeAll(() => {
    dir = join(work, name);
    // The command as npm links it for `npx agent-functions-cli`.
    const bin = join(work, 'runner', 'node_modules', '.bin', 'agent-functions');
    const init = run(bin, ['init', dir, ...args], work, 1);
    expect(init.status, init.output).toBe(0);
    expect(init.stdout).toContain(`cd ${dir} && npm install && npm test && npm run dev`);
    // init makes the project a git repository with a first commit (outside any other): its .git is git's, not the template's.
    expect(filesUnder(dir).some((path) => path === '.git/HEAD')).toBe(true);
    const ownFiles = filesUnder(dir).filter((path) => !path.startsWith('.git/'));
    written = new Map(ownFiles.map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
    // The framework and the CLI from the tarballs; everything else from the registry.
    const pkg = JSON.parse(written.get('package.json') as string);
    pkg.dependencies['agent-functions'] = `file:${tarball('agent-functions')}`;
    pkg.devDependencies['agent-functions-cli'] = `file:${tarball('agent-functions-cli')}`;
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir, 15);
    expect(install.status, install.output).toBe(0);
  }, 20 * MINUTE);

  it('is outside the repository, and is what the sources write: the built template has not drifted', () => {
    expect(relative(REPO, dir).startsWith('..')).toBe(true);
    const expected = newProject(templateAt(REPO), { name, examples: args.length === 0 });
    expect([...written.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, text] of expected) expect(written.get(path), path).toBe(text);
  });

  it(
    'passes its own npm test: generate --check, tsc, biome and every test in workerd',
    () => {
      const test = run('npm', ['test'], dir, 15);
      expect(test.status, test.output).toBe(0);
      const files = [...written.keys()].filter((path) => path.startsWith('test/') && path.endsWith('.test.ts'));
      expect(test.output).toMatch(new RegExp(`Test Files\\s+${files.length} passed \\(${files.length}\\)`));
      expect(test.output).toMatch(/Tests\s+\d+ passed \(\d+\)/);
      expect(test.output).not.toMatch(/\bfailed\b|\bskipped\b/);
    },
    20 * MINUTE,
  );

  it(
    'builds its Worker with wrangler deploy --dry-run',
    () => {
      const out = join(work, `${name}-build`);
      const deploy = run('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', out], dir, 5);
      expect(deploy.status, deploy.output).toBe(0);
      expect(deploy.output).toContain('--dry-run: exiting now.');
      expect(existsSync(join(out, 'worker.js'))).toBe(true);
      if (args.length === 0) expect(deploy.output).toMatch(/env\.CALENDAR \(BookingCalendar\)\s+Durable Object/);
      else expect(deploy.output).not.toContain('Durable Object');
    },
    10 * MINUTE,
  );
});
