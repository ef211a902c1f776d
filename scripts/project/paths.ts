// The one module that knows a project's layout: where its root is (the nearest folder up from the
// working directory holding a wrangler config, as `npm run` starts commands in the project's root)
// and where each of its files lives in it. Every command takes its paths from here.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const WRANGLER_CONFIGS = ['wrangler.toml', 'wrangler.jsonc', 'wrangler.json'];

/**
 * The project's root: `from` or the nearest folder above it with a wrangler config.
 * @example findProjectRoot('/home/ada/shop/functions') // '/home/ada/shop'
 */
export const findProjectRoot = (from: string = process.cwd()): string => {
  let dir = resolve(from);
  for (;;) {
    if (WRANGLER_CONFIGS.some((file) => existsSync(join(dir, file)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        `No project here: no wrangler.toml in ${resolve(from)} or any folder above it. Run agent-functions in a project (agent-functions init <dir> makes one).`,
      );
    }
    dir = parent;
  }
};

let found: string | undefined;

/** The project the command runs in (found once per process). */
export const projectRoot = (): string => {
  found ??= findProjectRoot();
  return found;
};

/** Where each of a project's files lives, under `root`. */
export const projectPaths = (root: string = projectRoot()) => ({
  root,
  functions: join(root, 'functions'),
  events: join(root, 'events'),
  lib: join(root, 'lib'),
  generated: join(root, 'generated'),
  wranglerToml: join(root, 'wrangler.toml'),
  workerTypes: join(root, 'worker-configuration.d.ts'),
  devVars: join(root, '.dev.vars'),
  devVarsExample: join(root, '.dev.vars.example'),
  devConfig: join(root, 'dev.config.ts'),
  workflows: join(root, '.github', 'workflows'),
  readme: join(root, 'README.md'),
  /** The sync and secrets variables of an environment: `.env`, or `.env.<name>` for --env <name>. */
  dotenv: (env?: string) => join(root, env ? `.env.${env}` : '.env'),
  /** The accounts file of an environment: platform.accounts.json, or platform.accounts.<name>.json. */
  accounts: (env?: string) => join(root, env ? `platform.accounts.${env}.json` : 'platform.accounts.json'),
  /** What dev keeps while it runs (.wrangler/dev.json): the local platform's address, for other commands. */
  devState: join(root, '.wrangler', 'dev.json'),
});

/** The paths of one project. */
export type ProjectPaths = ReturnType<typeof projectPaths>;

/**
 * The Worker's entry, the wrangler config's top-level `main` (before the toml's first [table], or
 * the json's first "main" key), read from its text without loading wrangler's 15 MB bundle;
 * undefined when none is set.
 * @example workerMain('/home/ada/shop') // 'worker.ts'
 */
export const workerMain = (root: string): string | undefined => {
  const text = (file: string) => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '');
  const json = text('wrangler.jsonc') || text('wrangler.json');
  return (
    /^\s*main\s*=\s*["']([^"'\n]+)["']/m.exec(text('wrangler.toml').split(/^\s*\[/m)[0] ?? '')?.[1] ??
    /"main"\s*:\s*"([^"\n]+)"/.exec(json)?.[1]
  );
};
