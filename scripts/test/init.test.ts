// `agent-functions init`: what it refuses, what it prints, and what it writes: the example project
// as it is in this repository's root (so a test fails when the two drift apart), or a bare one. That
// a written project installs from the packed packages and passes its own `npm test` is
// e2e/pack.test.ts's part.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { STARTER_DESCRIPTION, STARTER_FUNCTION } from '../init/bare.ts';
import { FIRST_COMMIT } from '../init/git.ts';
import { HELP, main } from '../init/main.ts';
import {
  BIOME_CHECK,
  biomeJson,
  type CliPackage,
  newProject,
  ownPackage,
  projectName,
  REPOSITORY_SCRIPTS,
  USER_SCRIPTS,
} from '../init/project.ts';
import { REPOSITORY_ENTRIES, readTemplate, templateAt, WORKSPACE_FOLDERS, writeTemplate } from '../init/template.ts';
import { TYPES_ARGS } from '../project/generated.ts';
import { functionTemplate, PLACEHOLDER_DESCRIPTION, testTemplate } from '../project/templates.ts';
import { runMain } from './capture.ts';
import { PROJECT_ROOT } from './repo.ts';

/** `agent-functions init <args>` in this process: its exit code and what it printed. */
const cli = (...args: string[]) => runMain(main, args);

/** Every file under `dir`, '/'-separated paths relative to it. */
const filesUnder = (dir: string, prefix = ''): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    // The repository init makes is git's, not the project's files.
    if (path === '.git') return [];
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });

// A commit needs an author: the machine's, or this one where it has none (a CI runner).
for (const [name, value] of Object.entries({
  GIT_AUTHOR_NAME: 'Init Test',
  GIT_AUTHOR_EMAIL: 'init@example.com',
  GIT_COMMITTER_NAME: 'Init Test',
  GIT_COMMITTER_EMAIL: 'init@example.com',
})) {
  process.env[name] ??= value;
}
const gitIn = (dir: string, ...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });

const root = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const rootPackage = JSON.parse(root('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const cliPackage = JSON.parse(root('scripts/package.json')) as CliPackage;
/** The example project's files in the root, as init copies them. */
const rootProject = [...templateAt(PROJECT_ROOT).files.keys()];

const ANSI = '\u001b[';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'init-'));
});

describe('agent-functions init: the command', () => {
  it.each([['--help'], ['-h'], ['my-project', '--help'], ['--no-examples', '-h']])(
    'prints its help for %s and writes nothing',
    (...args) => {
      const { status, stdout, stderr } = cli(...args);
      expect(status).toBe(0);
      expect(stdout).toBe(HELP);
      expect(stdout).toContain('Usage: agent-functions init <dir> [--no-examples]');
      expect(stderr).toBe('');
      expect(existsSync('my-project')).toBe(false);
    },
  );

  it.each([
    [[], 'Say where'],
    [['one', 'two'], 'Give one folder'],
    [['new-project', '--examples=no'], 'Unknown option --examples=no'],
  ])('exits 2 with the usage for %j', (args, words) => {
    const { status, stdout, stderr } = cli(...args.map((arg) => (arg.startsWith('-') ? arg : join(base, arg))));
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(words);
    expect(stderr).toContain('Usage: agent-functions init');
    expect(stderr).not.toContain(ANSI);
    expect(readdirSync(base)).toEqual([]);
  });

  it('refuses a folder that is not empty in one line, and writes nothing into it', () => {
    writeFileSync(join(base, 'notes.txt'), 'mine');
    const { status, stdout, stderr } = cli(base);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Nothing was created: ${base} is not empty: choose a new folder, or empty this one.\n`);
    expect(readdirSync(base)).toEqual(['notes.txt']);
    expect(readFileSync(join(base, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a path that is a file', () => {
    const file = join(base, 'taken');
    writeFileSync(file, 'mine');
    const { status, stderr } = cli(file, '--no-examples');
    expect(status).toBe(1);
    expect(stderr).toBe(`Nothing was created: ${file} is a file, not a folder: choose a new folder for the project.\n`);
  });

  it('writes into an empty folder and prints the next steps, without colours off a terminal', () => {
    const { status, stdout, stderr } = cli(base);
    expect(status).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).not.toContain(ANSI);
    // However many functions the project holds: a user's own first function among them.
    const functions = rootProject.filter((path) => /^functions\/[a-z][a-z0-9_]*\.ts$/.test(path)).length;
    expect(stdout).toContain(
      `Created ${base} with ${rootProject.length + 2} files: the examples (${functions} functions).`,
    );
    expect(stdout).toContain(`cd ${base} && npm install && npm test && npm run dev`);
    expect(filesUnder(base).sort()).toEqual([...rootProject, 'package.json', 'README.md'].sort());
  });

  it('makes the project a git repository whose first commit holds every file', () => {
    const { status, stdout } = cli(base, '--no-examples');
    expect(status).toBe(0);
    expect(stdout).toContain('Made a git repository with a first commit.');
    expect(gitIn(base, 'log', '--format=%s').stdout.trim()).toBe(FIRST_COMMIT);
    expect(gitIn(base, 'ls-files').stdout.trim().split('\n').sort()).toEqual(filesUnder(base).sort());
    expect(gitIn(base, 'status', '--porcelain').stdout).toBe('');
  });

  it('makes no repository of its own inside one, and says so', () => {
    gitIn(base, 'init', '--quiet');
    const dir = join(base, 'inner');
    const { status, stdout } = cli(dir, '--no-examples');
    expect(status).toBe(0);
    expect(stdout).toContain('inside a git repository already');
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(gitIn(base, 'log').status).not.toBe(0);
  });

  it('creates a new folder, its parents too, and quotes it in the next steps when it must', () => {
    const dir = join(base, 'clients', 'Acme Dental');
    const { status, stdout } = cli(dir, '--no-examples');
    expect(status).toBe(0);
    expect(stdout).toContain(`cd '${dir}' && npm install`);
    expect(stdout).toContain(`one function, functions/${STARTER_FUNCTION}.ts`);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name).toBe('acme-dental');
  });
});

describe('agent-functions init: with the examples', () => {
  const files = newProject(templateAt(PROJECT_ROOT), { name: 'acme-dental', examples: true });

  it("gives a new project every file git keeps at the root but the repository's own: a LICENSE too, never a .env", () => {
    const repo = mkdtempSync(join(tmpdir(), 'init-repo-'));
    const write = (path: string, text: string) => {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), text);
    };
    write('.gitignore', '.env\ngenerated/\n');
    write('LICENSE', 'MIT');
    write('.nvmrc', '24\n');
    write('functions/tell_time.ts', 'export default {};\n');
    write('notes/todo.md', 'not committed yet, not ignored');
    write('.env', 'FUNCTIONS_SECRET=mine');
    write('generated/functions.ts', '// written by generate');
    // The repository's own entries: folders (src/, docs/, .ci/ ...) and files (package.json, README.md ...).
    for (const own of REPOSITORY_ENTRIES.filter((entry) => entry !== '.git'))
      write(/^[^.].*\./.test(own) ? own : `${own}/file`, '{}');
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    expect(git('add', '.gitignore', 'LICENSE', '.nvmrc', 'functions', 'src', 'docs').status).toBe(0);
    expect([...templateAt(repo).files.keys()].sort()).toEqual([
      '.gitignore',
      '.nvmrc',
      'LICENSE',
      'functions/tell_time.ts',
      'notes/todo.md',
    ]);
  });

  it('keeps the workspace packages and their docs out of a new project', () => {
    for (const folder of [...WORKSPACE_FOLDERS, 'docs', 'CHANGELOG.md', 'package-lock.json'])
      expect(REPOSITORY_ENTRIES).toContain(folder);
    for (const path of rootProject) expect(REPOSITORY_ENTRIES).not.toContain(path.split('/')[0]);
  });

  it("classifies every script of the root's package.json as the project's or the workspace's", () => {
    const known = new Set<string>([...USER_SCRIPTS, ...REPOSITORY_SCRIPTS]);
    expect(Object.keys(rootPackage.scripts).filter((name) => !known.has(name))).toEqual([]);
  });

  it("holds every file of the root's example project, each as it is there but for the three init adapts", () => {
    expect([...files.keys()].sort()).toEqual([...rootProject, 'package.json', 'README.md'].sort());
    expect(rootProject).toEqual(expect.arrayContaining(['.gitignore', '.npmrc', 'test/helpers.ts', 'worker.ts']));
    const adapted = ['vitest.config.ts', 'biome.json', 'wrangler.toml'];
    for (const path of rootProject.filter((p) => !adapted.includes(p))) {
      expect(files.get(path), path).toBe(root(path));
    }
  });

  it('runs vitest on the project alone: the root config without the workspace packages', () => {
    const config = files.get('vitest.config.ts') as string;
    for (const folder of WORKSPACE_FOLDERS) expect(config).not.toContain(`'${folder}'`);
    expect(config).not.toMatch(/this repository/i);
    expect(config).toMatch(/name: 'project',\s+include: \['test\/\*\*\/\*\.test\.ts'\]/);
    expect(config).toContain("globalSetup: ['agent-functions-cli/vitest-setup']");
    // Nothing but the workspace's lines left out, nothing added.
    const lines = root('vitest.config.ts').split('\n');
    const kept = config.split('\n').filter((line) => !lines.includes(line));
    expect(kept).toEqual(['// the bindings of wrangler.toml.']);
  });

  it("lints with the root's biome settings but the workspace's overrides", () => {
    const config = JSON.parse(files.get('biome.json') as string) as { overrides?: Array<{ includes: string[] }> };
    const rootConfig = JSON.parse(root('biome.json')) as typeof config;
    const inWorkspace = (o: { includes: string[] }) =>
      o.includes.every((p) => WORKSPACE_FOLDERS.some((folder) => p.replace(/^!/, '').startsWith(`${folder}/`)));
    // The guard against relative imports of src/ and scripts/ concerns the workspace only: a
    // project of its own may have a src/ folder.
    const guardsWorkspace = (o: object) => JSON.stringify(o).includes('"**/src/**"');
    const kept = (rootConfig.overrides ?? []).filter((o) => !inWorkspace(o) && !guardsWorkspace(o));
    const { overrides: _, ...rest } = rootConfig;
    expect(config).toEqual(kept.length > 0 ? { ...rest, overrides: kept } : rest);
    expect(JSON.stringify(config)).not.toContain('**/src/**');
  });

  it("names its Workers and queues after the project, and is otherwise the root's wrangler.toml", () => {
    const toml = files.get('wrangler.toml') as string;
    expect(toml).toMatch(/^name = "acme-dental"$/m);
    expect(toml).toMatch(/^name = "acme-dental-staging"$/m);
    expect(toml).toContain('queue = "acme-dental-events"');
    expect(toml).toContain('dead_letter_queue = "acme-dental-events-staging-dlq"');
    expect(toml).toContain('command = "npx agent-functions generate"');
    expect(toml.replaceAll('acme-dental', 'agent-functions')).toBe(root('wrangler.toml'));
  });

  it("has a package.json of its own: the framework and CLI of this version, the tools at the root's versions", () => {
    const pkg = JSON.parse(files.get('package.json') as string);
    expect(pkg).toMatchObject({ name: 'acme-dental', private: true, type: 'module' });
    expect(pkg.dependencies).toEqual({
      'agent-functions': cliPackage.dependencies['agent-functions'],
      zod: rootPackage.dependencies.zod,
    });
    const tools = [
      '@biomejs/biome',
      '@cloudflare/vitest-plugin',
      '@cloudflare/workers-types',
      // Node's types: the example project has Node code (dev.config.ts, dev/), checked by tsconfig.node.json.
      '@types/node',
      'node',
      'typescript',
      'vitest',
      'wrangler',
    ];
    expect(pkg.devDependencies).toEqual({
      'agent-functions-cli': cliPackage.version,
      ...Object.fromEntries(tools.map((name) => [name, rootPackage.devDependencies[name]])),
    });
    for (const name of USER_SCRIPTS) expect(pkg.scripts[name], name).toBe(rootPackage.scripts[name]);
    expect(pkg.scripts).toMatchObject({
      // The Worker's code, then the Node side (dev.config.ts and its stand-ins).
      typecheck: 'agent-functions generate --check && tsc && tsc -p tsconfig.node.json',
      lint: `${BIOME_CHECK} && agent-functions lint workflows`,
      test: 'npm run typecheck && npm run lint && npm run lint:functions && vitest run',
    });
    expect(pkg.allowScripts).toEqual(rootPackage.allowScripts);
    expect(pkg.workspaces).toBeUndefined();
  });

  it('has a README of its own, not the framework’s guide', () => {
    const readme = files.get('README.md') as string;
    expect(readme).toMatch(/^# acme-dental\n/);
    expect(readme).toContain('npm install\nnpm test');
    expect(readme.length).toBeLessThan(5000);
  });
});

describe('agent-functions init --no-examples', () => {
  const files = newProject(templateAt(PROJECT_ROOT), { name: 'bare', examples: false });
  const starter = `functions/${STARTER_FUNCTION}.ts`;

  it('writes a project of one function and its test, with the shared settings of the example project', () => {
    expect([...files.keys()].sort()).toEqual(
      [
        '.dev.vars.example',
        '.env.example',
        '.gitignore',
        '.npmrc',
        'README.md',
        'biome.json',
        starter,
        'package.json',
        'platform.accounts.json',
        `test/functions/${STARTER_FUNCTION}.test.ts`,
        // The tests' Worker settings vitest.config.ts reads: none in a bare project.
        'test/bindings.ts',
        'test/functions.test.ts',
        'tsconfig.json',
        'vitest.config.ts',
        'worker-configuration.d.ts',
        'worker.ts',
        'wrangler.toml',
      ].sort(),
    );
    for (const path of ['.env.example', '.gitignore', '.npmrc', 'tsconfig.json', 'test/functions.test.ts']) {
      expect(files.get(path), path).toBe(root(path));
    }
    const withExamples = newProject(templateAt(PROJECT_ROOT), { name: 'bare', examples: true });
    for (const path of ['vitest.config.ts', 'biome.json']) expect(files.get(path)).toBe(withExamples.get(path));
  });

  it('serves its functions and nothing else: no Durable Objects, queues, events or KV', () => {
    const worker = files.get('worker.ts') as string;
    expect(worker).toContain('export default createWorker({ functions }) satisfies ExportedHandler<Env>;');
    expect(worker).not.toMatch(/^export \{/m);
    expect(worker).not.toContain('events');
    const toml = files.get('wrangler.toml') as string;
    for (const table of ['durable_objects', 'migrations', 'queues', 'kv_namespaces', 'env.']) {
      expect(toml).not.toContain(`[${table}`);
      expect(toml).not.toContain(`[[${table}`);
    }
    expect(toml).toMatch(/^name = "bare"$/m);
    const date = (text: string) => /^compatibility_date = "(.+)"$/m.exec(text)?.[1];
    expect(date(toml)).toBe(date(root('wrangler.toml')));
    expect(files.get('.dev.vars.example')).toMatch(/^FUNCTIONS_SECRET=$/m);
    expect(files.get('.dev.vars.example')).not.toContain('STORE_API');
  });

  it("starts with the scaffold's function and test, with a real description", () => {
    const source = files.get(starter) as string;
    expect(source).not.toContain(PLACEHOLDER_DESCRIPTION);
    expect(source).toContain(`'${STARTER_DESCRIPTION}'`);
    const scaffolded = functionTemplate(STARTER_FUNCTION)
      .replace(PLACEHOLDER_DESCRIPTION, STARTER_DESCRIPTION)
      .replace(`\`npm run new -- ${STARTER_FUNCTION}\``, '`agent-functions init`');
    expect(source).toBe(scaffolded);
    expect(files.get(`test/functions/${STARTER_FUNCTION}.test.ts`)).toBe(testTemplate(STARTER_FUNCTION));
    // Long enough that biome keeps it on a line of its own, as the template's placeholder is.
    expect(STARTER_DESCRIPTION.length).toBeGreaterThan('  description: '.length + 2);
  });

  it('lints without a workflows step, as it has no workflows', () => {
    const pkg = JSON.parse(files.get('package.json') as string);
    expect(pkg.scripts.lint).toBe(BIOME_CHECK);
    expect(pkg.scripts.typecheck).toBe('agent-functions generate --check && tsc');
    expect(pkg.scripts.test).toBe('npm run typecheck && npm run lint && npm run lint:functions && vitest run');
  });

  it('has the Env type that wrangler types derives from its wrangler.toml and .dev.vars.example', () => {
    const dir = join(base, 'bare');
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    for (const [path, text] of files) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    // wrangler from this repository, and its [build] command's agent-functions from these sources.
    symlinkSync(join(PROJECT_ROOT, 'node_modules', 'wrangler'), join(dir, 'node_modules', 'wrangler'), 'dir');
    const bin = join(dir, 'node_modules', '.bin', 'agent-functions');
    writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(PROJECT_ROOT, 'scripts', 'bin.ts')}" "$@"\n`);
    chmodSync(bin, 0o755);
    const wrangler = join(dir, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
    const check = spawnSync(process.execPath, [wrangler, ...TYPES_ARGS, '--check'], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        // As generateTypes runs it: this run's vitest.config.ts keeps .env files from the tests.
        CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV: 'true',
        PATH: [join(dir, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
      },
    });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('up to date');
  }, 60_000);
});

describe('the template in the built CLI', () => {
  it("is the root's example project, dot-files stored under names npm pack keeps", () => {
    const out = join(base, 'template');
    const written = writeTemplate(PROJECT_ROOT, out);
    expect(written).toBe(rootProject.length);
    const stored = filesUnder(join(out, 'project'));
    expect(stored.filter((path) => path.split('/').some((segment) => segment.startsWith('.')))).toEqual([]);
    expect(stored).toEqual(expect.arrayContaining(['_gitignore', '_npmrc', '_github/workflows/ci.yml']));
    const read = readTemplate(out);
    const inPlace = templateAt(PROJECT_ROOT);
    expect([...read.files.keys()].sort()).toEqual([...inPlace.files.keys()].sort());
    for (const [path, bytes] of inPlace.files) expect(read.files.get(path)?.equals(bytes), path).toBe(true);
    expect(read.rootPackage).toEqual(inPlace.rootPackage);
  });

  it("takes this CLI's own package.json for the versions", () => {
    expect(ownPackage()).toEqual(cliPackage);
  });
});

describe('projectName', () => {
  it.each([
    ['/home/ada/Clients/Acme Dental', 'acme-dental'],
    ['shop', 'shop'],
    ['./my_project.v2/', 'my-project-v2'],
    ['/tmp/---', 'agent-functions'],
    [`/tmp/${'a'.repeat(70)}`, 'a'.repeat(63)],
  ])('names %s %s', (dir, name) => {
    expect(projectName(dir)).toBe(name);
  });
});

describe('biomeJson', () => {
  it('prints as biome formats: objects expanded, short arrays of plain values on one line', () => {
    expect(biomeJson({ a: { b: ['x', 'y'] }, c: [{ d: 1 }], e: [] })).toBe(
      '{\n  "a": {\n    "b": ["x", "y"]\n  },\n  "c": [\n    {\n      "d": 1\n    }\n  ],\n  "e": []\n}',
    );
    const long = Array.from({ length: 12 }, (_, i) => `pattern-number-${i}`);
    expect(biomeJson({ long })).toBe(`{\n  "long": [\n${long.map((p) => `    "${p}"`).join(',\n')}\n  ]\n}`);
  });
});

describe("the project's .npmrc", () => {
  it('lets a failing npm install say why', () => {
    // What a new project gets (init copies the root's .npmrc), and a dependency that cannot be installed.
    const dir = mkdtempSync(join(tmpdir(), 'npmrc-'));
    writeFileSync(join(dir, '.npmrc'), root('.npmrc'));
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'speaks', private: true, dependencies: { 'agent-functions-no-such-package': '9.9.9' } })}\n`,
    );
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(install.status).not.toBe(0);
    expect(install.stderr).toContain('ENOTCACHED');
    expect(install.stderr).toContain('agent-functions-no-such-package');
  });
});

describe('agent-functions init --local-packages (from a clone, before the packages are published)', () => {
  it('packs this checkout into the project and depends on the tarballs, so npm install needs no registry copy of ours', () => {
    const dir = join(base, 'my-agent');
    const { status, stdout, stderr } = cli(dir, '--no-examples', '--local-packages');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const packages = readdirSync(join(dir, 'packages')).sort();
    expect(packages).toEqual([
      `agent-functions-${cliPackage.version}.tgz`,
      `agent-functions-cli-${cliPackage.version}.tgz`,
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof rootPackage;
    expect(pkg.dependencies['agent-functions']).toBe(`file:packages/agent-functions-${cliPackage.version}.tgz`);
    expect(pkg.devDependencies['agent-functions-cli']).toBe(
      `file:packages/agent-functions-cli-${cliPackage.version}.tgz`,
    );
    expect(stdout).toContain('packages/');
    expect(stdout).toContain(`cd ${dir} && npm install && npm test && npm run dev`);
  }, 120_000);

  it('resolves a relative folder against where the user typed npm run init (INIT_CWD), not the checkout', () => {
    const before = process.env.INIT_CWD;
    process.env.INIT_CWD = base;
    try {
      const { status } = cli('relative-agent', '--no-examples');
      expect(status).toBe(0);
      expect(existsSync(join(base, 'relative-agent', 'package.json'))).toBe(true);
      expect(existsSync(join(process.cwd(), 'relative-agent'))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = before;
    }
  });

  it('is a script of the checkout: npm run init -- <dir>', () => {
    expect(rootPackage.scripts.init).toBe('agent-functions init --local-packages');
  });
});
