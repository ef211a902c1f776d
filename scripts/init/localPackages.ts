// `agent-functions init --local-packages` (the checkout's `npm run init -- <dir>`): until the
// packages are on the registry (docs/publishing.md), a project made from a clone installs this
// checkout's agent-functions and agent-functions-cli, packed with `npm pack` into its packages/
// folder and named as `file:` dependencies. Its package-lock.json is the checkout's, less the
// workspace's own packages, plus the two tarballs themselves, so everything installs at the
// versions the checkout installed, from npm's cache, with no network (`npm install --offline`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the tarballs go in the new project. */
export const PACKAGES_DIR = 'packages';

/** The dependencies of a project on the packed packages: `file:` paths relative to its root. */
export interface LocalPackages {
  framework: string;
  cli: string;
}

const nameAt = (path: string): string | undefined => {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
};

/** The checkout this CLI runs from (the folder holding src/ and scripts/ of the workspace), if any. */
export const checkoutRoot = (from: string = fileURLToPath(import.meta.url)): string | undefined => {
  for (let dir = dirname(from); dirname(dir) !== dir; dir = dirname(dir)) {
    if (
      nameAt(join(dir, 'src', 'package.json')) === 'agent-functions' &&
      nameAt(join(dir, 'scripts', 'package.json')) === 'agent-functions-cli'
    ) {
      return dir;
    }
  }
  return undefined;
};

/**
 * Packs the checkout's two packages into `<dir>/packages/` (built already: npm install's prepare
 * builds them); returns their `file:` dependencies, or throws saying what to do.
 */
export const packLocalPackages = (dir: string, checkout = checkoutRoot()): LocalPackages => {
  if (!checkout) {
    throw new Error(
      '--local-packages packs the agent-functions checkout this command runs from, and this one runs from an installed package: use it from a clone (npm run init -- <dir>).',
    );
  }
  for (const built of ['src/dist', 'scripts/dist']) {
    if (!existsSync(join(checkout, built))) {
      throw new Error(`${join(checkout, built)} is missing: run npm install (or npm run build) in ${checkout} first.`);
    }
  }
  const target = join(dir, PACKAGES_DIR);
  mkdirSync(target, { recursive: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const pack = spawnSync(
    'npm',
    [
      'pack',
      '-w',
      'src',
      '-w',
      'scripts',
      '--pack-destination',
      target,
      '--ignore-scripts',
      '--json',
      '--loglevel=error',
    ],
    { cwd: checkout, env, encoding: 'utf8', timeout: 5 * 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (pack.status !== 0) {
    throw new Error(`npm pack failed in ${checkout}: ${(pack.error?.message ?? pack.stderr).trim()}`);
  }
  const packed = JSON.parse(pack.stdout) as Array<{ name: string; filename: string }>;
  const file = (name: string): string => {
    const found = packed.find((p) => p.name === name);
    if (!found) throw new Error(`npm pack made no ${name} tarball in ${target}.`);
    return `file:${PACKAGES_DIR}/${found.filename}`;
  };
  return { framework: file('agent-functions'), cli: file('agent-functions-cli') };
};

/** What writeLocalLockfile takes of the new project's package.json. */
interface ProjectPackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

/** A lockfile entry of one package, as npm writes it (the fields this file reads or writes). */
type LockEntry = { name?: string; version?: string; link?: boolean } & Record<string, unknown>;

/** What a lockfile entry of an installed package carries of its package.json (npm's own choice of fields). */
const INSTALLED_FIELDS = [
  'license',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
] as const;

/**
 * The lockfile entries of the packed tarballs the project depends on (`file:packages/...`), from
 * the checkout's entries of its workspace packages: version, the tarball and its integrity, the
 * package's dependencies and peers. Without them npm resolves each tarball at install and fetches
 * the full registry document of every peer it names (zod, vitest), which an install from a lockfile
 * never caches: offline, that failed as `ERESOLVE ... Found: zod@undefined`.
 */
const packedEntries = (
  dir: string,
  project: ProjectPackage,
  workspaces: Record<string, LockEntry>,
): Record<string, LockEntry> => {
  const entries: Record<string, LockEntry> = {};
  const specs = { ...project.devDependencies, ...project.dependencies };
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec.startsWith(`file:${PACKAGES_DIR}/`)) continue;
    const own = Object.values(workspaces).find((entry) => entry.name === name);
    if (!own) throw new Error(`The checkout's package-lock.json has no workspace package ${name}.`);
    const tarball = readFileSync(join(dir, spec.slice('file:'.length)));
    const entry: LockEntry = {
      version: own.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    };
    if (!project.dependencies?.[name]) entry.dev = true;
    for (const field of INSTALLED_FIELDS) if (own[field] !== undefined) entry[field] = own[field];
    entries[`node_modules/${name}`] = entry;
  }
  return entries;
};

/**
 * Writes `<dir>/package-lock.json` from the checkout's: the same registry packages at the same
 * versions and integrity, without the workspace's own packages (src, scripts, bench, e2e) and their
 * links, with the packed tarballs in packages/ in their place (packedEntries), and with the
 * project's package.json as its root. npm then resolves nothing and needs the registry for nothing
 * the checkout's install already cached. Nothing is written when the checkout has no lockfile.
 * @example writeLocalLockfile('/home/ada/my-agent', JSON.parse(readFileSync('/home/ada/my-agent/package.json', 'utf8')))
 */
export const writeLocalLockfile = (dir: string, project: ProjectPackage, checkout = checkoutRoot()): void => {
  const source = checkout && join(checkout, 'package-lock.json');
  if (!source || !existsSync(source)) return;
  const lock = JSON.parse(readFileSync(source, 'utf8')) as { packages?: Record<string, LockEntry> } & Record<
    string,
    unknown
  >;
  const workspace = /^(src|scripts|bench|e2e)(\/|$)/;
  const all = Object.entries(lock.packages ?? {});
  const packages = Object.fromEntries(
    all.filter(
      ([path, entry]) =>
        path !== '' && !workspace.test(path) && !entry.link && !/^node_modules\/agent-functions(-cli)?$/.test(path),
    ),
  );
  const workspaces = Object.fromEntries(all.filter(([path]) => /^(src|scripts|bench|e2e)$/.test(path)));
  const root = {
    name: project.name,
    version: project.version,
    ...(project.dependencies ? { dependencies: project.dependencies } : {}),
    ...(project.devDependencies ? { devDependencies: project.devDependencies } : {}),
    ...(project.engines ? { engines: project.engines } : {}),
  };
  const installed = { ...packages, ...packedEntries(dir, project, workspaces) };
  const sortedPaths = Object.fromEntries(Object.entries(installed).sort(([a], [b]) => a.localeCompare(b)));
  const written = { ...lock, name: project.name, version: project.version, packages: { '': root, ...sortedPaths } };
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(written, null, 2)}\n`);
};
