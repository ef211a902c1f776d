// What `agent-functions init` writes: the example project's files (template.ts) made a project of
// its own (its Worker's name, configuration without the workspace, its package.json and README),
// or with --no-examples the bare project of bare.ts. Pure: the files by path, nothing written.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import {
  DEV_VARS_EXAMPLE,
  SHARED_FILES,
  STARTER_FUNCTION,
  starterFiles,
  TEST_BINDINGS,
  WORKER,
  WORKER_CONFIGURATION,
  wranglerToml,
} from './bare.ts';
import type { LocalPackages } from './localPackages.ts';
import { type RootPackage, type Template, WORKSPACE_FOLDERS } from './template.ts';

/** A new project's files by path ('/'-separated), as text. */
export type ProjectFiles = Map<string, string>;

/** The CLI's own package.json: its version, and the version of the framework it was built with. */
export interface CliPackage {
  name: string;
  version: string;
  dependencies: Record<string, string>;
}

/** This CLI's package.json (beside the sources' scripts/, and one level above dist/). */
export const ownPackage = (): CliPackage => {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as CliPackage;
      if (pkg.name === 'agent-functions-cli') return pkg;
    } catch {
      // Not this one.
    }
  }
  throw new Error("agent-functions-cli's package.json is not beside its code: reinstall the package.");
};

/**
 * The name of the Worker, npm package and queues of the project in `dir`: its folder's name,
 * lowercase letters, digits and dashes, at most 63 (a Worker name's limit).
 * @example projectName('~/Clients/Acme Dental') // 'acme-dental'
 */
export const projectName = (dir: string): string =>
  basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '') || 'agent-functions';

/** Scripts of the root's package.json that a project runs as they are. */
export const USER_SCRIPTS = [
  'dev',
  'deploy',
  'sync',
  'secrets',
  'accounts',
  'tail',
  'stats',
  'new',
  'openapi',
  'generate',
  'platform',
  'mcp',
  'eval',
  'lint:functions',
  'format',
  'test:watch',
] as const;

/** Scripts of the root's package.json that are the workspace's: a project gets its own typecheck, lint and test. */
export const REPOSITORY_SCRIPTS = [
  'init',
  'build',
  'prepare',
  'typecheck',
  'lint',
  'lint:biome',
  'lint:workflows',
  'test',
  'test:e2e',
  'test:faults',
  'bench',
  'bench:profile',
] as const;

/** The project's dependencies, versions from the root's package.json (the example project's). */
const DEPENDENCIES = ['zod'] as const;
const DEV_DEPENDENCIES = [
  '@biomejs/biome',
  '@cloudflare/vitest-plugin',
  '@cloudflare/workers-types',
  'node',
  'typescript',
  'vitest',
  'wrangler',
] as const;

const pick = (from: Record<string, string> | undefined, names: readonly string[], where: string) =>
  Object.fromEntries(
    names.map((name) => {
      const version = from?.[name];
      if (!version) throw new Error(`The template's package.json has no ${where} "${name}".`);
      return [name, version];
    }),
  );

/**
 * `biome check .`, naming the command that fixes what it can when it fails (a new project's lint;
 * the repository's lint:biome says the same).
 */
export const BIOME_CHECK =
  "biome check . || (echo 'npm run format fixes formatting and import order; then run npm test again.' >&2 && exit 1)";

const sorted = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The project's package.json: the framework at the version this CLI was built with, this CLI, the
 * tools at the root's versions, the root's user scripts, and a `test` that runs each check.
 */
export const packageJson = (
  name: string,
  root: RootPackage,
  cli: CliPackage,
  workflows: boolean,
  nodeCode = false,
  local?: LocalPackages,
): string => {
  const framework = local?.framework ?? cli.dependencies['agent-functions'];
  if (!framework) throw new Error(`${cli.name} ${cli.version} names no agent-functions dependency.`);
  const scripts: Record<string, string> = pick(root.scripts, USER_SCRIPTS, 'script');
  // tsconfig.node.json: the Node side of the project (dev.config.ts and its stand-ins), beside the Worker's.
  scripts.typecheck = `agent-functions generate --check && tsc${nodeCode ? ' && tsc -p tsconfig.node.json' : ''}`;
  scripts.lint = workflows ? `${BIOME_CHECK} && agent-functions lint workflows` : BIOME_CHECK;
  scripts.test = 'npm run typecheck && npm run lint && npm run lint:functions && vitest run';
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: root.engines ?? { node: '>=20' },
    scripts,
    dependencies: sorted({ 'agent-functions': framework, ...pick(root.dependencies, DEPENDENCIES, 'dependency') }),
    devDependencies: sorted({
      'agent-functions-cli': local?.cli ?? cli.version,
      ...pick(root.devDependencies, DEV_DEPENDENCIES, 'devDependency'),
      // Node's types, for the Node side's tsconfig.node.json.
      ...(nodeCode ? pick(root.devDependencies, ['@types/node'], 'devDependency') : {}),
    }),
    allowScripts: root.allowScripts ?? {},
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
};

/** vitest.config.ts without the workspace packages' suites that the repository's run adds. */
export const projectVitestConfig = (text: string): string => {
  const lines: string[] = [];
  let cut = false;
  for (const line of text.split('\n')) {
    // The sentence about this repository, to the end of its comment.
    const at = line.indexOf(' In this repository');
    if (line.trimStart().startsWith('//') && at >= 0) {
      lines.push(line.slice(0, at));
      cut = true;
      continue;
    }
    if (cut && line.trimStart().startsWith('//')) continue;
    cut = false;
    if (new RegExp(`^\\s*'(${WORKSPACE_FOLDERS.join('|')})',?\\s*$`).test(line)) continue;
    lines.push(line);
  }
  return lines.join('\n');
};

interface BiomeOverride {
  includes?: string[];
}

// The workspace's guard against relative imports of its packages' folders (src/, scripts/): a
// project of its own has no framework sources, and may well have a src/ folder of its own.
const guardsWorkspaceFolders = (override: BiomeOverride): boolean => JSON.stringify(override).includes('"**/src/**"');

/** biome.json without the overrides that only concern the workspace packages' folders. */
export const projectBiomeConfig = (text: string): string => {
  const config = JSON.parse(text) as { overrides?: BiomeOverride[] };
  const inWorkspace = (pattern: string) =>
    WORKSPACE_FOLDERS.some((folder) => pattern.replace(/^!/, '').startsWith(`${folder}/`));
  if (config.overrides) {
    config.overrides = config.overrides.filter(
      (o) => !(o.includes ?? []).every(inWorkspace) && !guardsWorkspaceFolders(o),
    );
    if (config.overrides.length === 0) delete config.overrides;
  }
  return `${biomeJson(config)}\n`;
};

/**
 * JSON as biome formats it with this project's settings (2 spaces, 120 columns): objects one entry
 * a line, an array of plain values on one line when it fits.
 */
export const biomeJson = (value: unknown, indent = '', prefix = ''): string => {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const flat = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    const plain = value.every((item) => item === null || typeof item !== 'object');
    // The line it would sit on: indentation, the key, the array and a comma.
    if (plain && indent.length + prefix.length + flat.length + 1 <= 120) return flat;
    return `[\n${value.map((item) => `${indent}  ${biomeJson(item, `${indent}  `)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const name = `${JSON.stringify(key)}: `;
      return `${indent}  ${name}${biomeJson(item, `${indent}  `, name)}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
};

/** wrangler.toml with the project's name for its Workers and queues instead of the examples'. */
export const projectWranglerToml = (text: string, name: string): string =>
  text.replace(/(?<=["\s])agent-functions(?=-events|-staging|")/g, name);

/** The compatibility date of a wrangler.toml. */
const compatibilityDate = (toml: string): string => {
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error("The template's wrangler.toml has no compatibility_date.");
  return date;
};

/** The project's README: what it is, the commands, where the guide is. */
export const readme = (name: string, examples: boolean): string => `# ${name}

Functions for a messaging platform's AI agent, made with \`agent-functions\`: one TypeScript file
per function in \`functions/\` (a description, a zod parameter schema, a handler), served by one
Cloudflare Worker (\`worker.ts\`), registered on the platform by \`npm run sync\`.
${
  examples
    ? `
It starts with the agent-functions examples: functions in \`functions/\`, event handlers in
\`events/\`, their helpers and Durable Objects in \`lib/\`, their tests in \`test/\`. Keep the ones you
need; each one's bindings in \`wrangler.toml\` and exports in \`worker.ts\` say what to remove with it.
`
    : `
It starts with one function, \`functions/${STARTER_FUNCTION}.ts\`, and its test
(\`test/functions/${STARTER_FUNCTION}.test.ts\`): edit it into your first real one.
`
}
## Quick start

\`\`\`sh
npm install
npm test        # type-checks, lints and runs every test (the functions' tests run inside workerd)
npm run dev     # serves every function on http://127.0.0.1:8787, no Cloudflare account needed
\`\`\`

Your system Node may be 20: \`npm install\` brings the project's own Node 24 (the \`node\` package),
and every \`npm run\` and \`npm test\` uses it.

## Commands

| command | does |
| --- | --- |
| \`npm test\` | \`agent-functions generate --check\`, \`tsc\`, \`biome check .\`${examples ? ', `agent-functions lint workflows`' : ''}, \`agent-functions lint functions\` and \`vitest run\` |
| \`npm run lint:functions\` | checks what the model reads of each function, and the golden prompts in \`test/functions/<name>.prompts.ts\` |
| \`npm run eval\` | asks a real model the golden prompts k times (\`EVAL_MODEL_URL\`, \`EVAL_MODEL_KEY\`, \`EVAL_MODEL\`) |
| \`npm run format\` | rewrites files the way \`biome check\` wants them |
| \`npm run new -- <name>\` | scaffolds \`functions/<name>.ts\` and its test (\`--event <type>\`: an event handler) |
| \`npm run dev\` | the functions, a local platform and a console on your machine |
| \`npm run deploy\` | creates the event queues the first time, then \`wrangler deploy\` (log in once with \`npx wrangler login\`) |
| \`npm run sync\` | registers every function on the platform (\`cp .env.example .env\` first; \`-- --dry-run\` shows the plan) |
| \`npm run secrets\`, \`npm run tail\`, \`npm run openapi\`, \`npm run platform\` | secrets, live logs, the OpenAPI document, the local platform |

Each command takes \`-- --help\`. The whole guide (how a function is defined, sync, events,
security, environments, continuous deployment) is the agent-functions documentation.
`;

/**
 * The files of a new project named `name`: the example project, or with `examples: false` the bare one.
 */
export const newProject = (
  template: Template,
  options: { name: string; examples: boolean; cli?: CliPackage; local?: LocalPackages },
): ProjectFiles => {
  const { name, examples } = options;
  const cli = options.cli ?? ownPackage();
  const text = (path: string): string => {
    const bytes = template.files.get(path);
    if (!bytes) throw new Error(`The template has no ${path}.`);
    return bytes.toString('utf8');
  };
  const files: ProjectFiles = new Map();
  const paths = examples ? [...template.files.keys()] : SHARED_FILES;
  for (const path of paths) files.set(path, text(path));
  files.set('vitest.config.ts', projectVitestConfig(text('vitest.config.ts')));
  files.set('biome.json', projectBiomeConfig(text('biome.json')));
  if (examples) {
    files.set('wrangler.toml', projectWranglerToml(text('wrangler.toml'), name));
  } else {
    files.set('worker.ts', WORKER);
    files.set('wrangler.toml', wranglerToml(name, compatibilityDate(text('wrangler.toml'))));
    files.set('.dev.vars.example', DEV_VARS_EXAMPLE);
    files.set('test/bindings.ts', TEST_BINDINGS);
    files.set('worker-configuration.d.ts', WORKER_CONFIGURATION);
    for (const [path, source] of starterFiles()) files.set(path, source);
  }
  const workflows = [...files.keys()].some((path) => path.startsWith('.github/workflows/'));
  files.set(
    'package.json',
    packageJson(name, template.rootPackage, cli, workflows, files.has('tsconfig.node.json'), options.local),
  );
  files.set('README.md', readme(name, examples));
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
};
