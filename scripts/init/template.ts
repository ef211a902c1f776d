// The example project that `agent-functions init` copies is this repository's root, not a copy kept
// in the CLI: the build (tsdown.config.ts) writes the root's project files into dist/template/, and
// the sources read the root itself. The rule, one a user can check: a new project gets every file
// git keeps at the root (tracked, or new and not ignored, so never a .env or a .dev.vars), but the
// repository's own entries below. A LICENSE or an .nvmrc a user commits goes with it, unlisted.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Root entries that are the repository's own: the workspace packages, their docs and changelog,
 * the lockfile and CI.
 * A new project gets a package.json and a README.md of its own instead of the root's.
 */
export const REPOSITORY_ENTRIES = [
  '.ci',
  '.git',
  'CHANGELOG.md',
  'README.md',
  'bench',
  'docs',
  'e2e',
  'package-lock.json',
  'package.json',
  'scripts',
  'src',
  'tsconfig.workspace.json',
] as const;

/** The workspace packages' folders: what a project's configuration must not name. */
export const WORKSPACE_FOLDERS = ['src', 'scripts', 'bench', 'e2e'] as const;

/** Never part of a project's files: installs, builds and what the tools write as they run (.gitignore). */
const SKIPPED = new Set(['node_modules', '.wrangler', 'dist', 'coverage', 'generated', 'test-results', '.DS_Store']);

/** A project's files by path relative to its root ('/'-separated), as bytes. */
export type Files = Map<string, Buffer>;

const walk = (dir: string, prefix: string, into: Files) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIPPED.has(entry.name) || entry.name.endsWith('.log')) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(join(dir, entry.name), path, into);
    else if (entry.isFile()) into.set(path, readFileSync(join(dir, entry.name)));
  }
};

/** The files git keeps under `root`: tracked, or new and not ignored ('/'-separated, relative). */
const keptByGit = (root: string): string[] => {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) {
    throw new Error(
      `${root}: the example project is the files git keeps there, and git ls-files failed: ${listed.stderr || listed.error?.message}`,
    );
  }
  return listed.stdout.split('\0').filter(Boolean);
};

/** The example project's files in the repository at `root`: what git keeps, but the repository's own entries. */
export const projectFilesAt = (root: string): Files => {
  const own = new Set<string>(REPOSITORY_ENTRIES);
  const files: Files = new Map();
  for (const path of keptByGit(root).sort()) {
    const segments = path.split('/');
    if (own.has(segments[0] as string) || segments.some((segment) => SKIPPED.has(segment))) continue;
    const full = join(root, path);
    // Tracked but deleted in the work tree, or a submodule: nothing to copy.
    if (existsSync(full) && statSync(full).isFile()) files.set(path, readFileSync(full));
  }
  return files;
};

// npm pack leaves out .gitignore and .npmrc files (and reads a .gitignore as rules for its folder),
// so the template stores each top-level entry whose name starts with a dot under "_" instead.
const stored = (path: string): string => (path.startsWith('.') ? `_${path.slice(1)}` : path);
const restored = (path: string): string => (path.startsWith('_') ? `.${path.slice(1)}` : path);

/** The folder of the template in the built package, and the root's package.json kept beside it. */
const PROJECT_DIR = 'project';
const ROOT_PACKAGE = 'project.package.json';

/**
 * Writes the template of the repository at `root` into `outDir` (the build's dist/template/): the
 * project's files, and the root's package.json, whose versions and scripts a new project takes.
 */
export const writeTemplate = (root: string, outDir: string): number => {
  const files = projectFilesAt(root);
  for (const [path, bytes] of files) {
    const nested = path.split('/').slice(1);
    if (path.startsWith('_') || nested.some((segment) => segment.startsWith('.'))) {
      throw new Error(
        `${path}: the template can only carry dot-names at its top level (see scripts/init/template.ts).`,
      );
    }
    const target = join(outDir, PROJECT_DIR, stored(path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  writeFileSync(join(outDir, ROOT_PACKAGE), readFileSync(join(root, 'package.json')));
  return files.size;
};

/** What a new project is made from: the example project's files and the root's package.json. */
export interface Template {
  files: Files;
  rootPackage: RootPackage;
}

/** The parts of the root's package.json that a new project's package.json takes. */
export interface RootPackage {
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  scripts?: Record<string, string>;
}

/** Reads a template written by writeTemplate. */
export const readTemplate = (dir: string): Template => {
  const files: Files = new Map();
  const raw: Files = new Map();
  walk(join(dir, PROJECT_DIR), '', raw);
  for (const [path, bytes] of raw) files.set(restored(path), bytes);
  return { files, rootPackage: JSON.parse(readFileSync(join(dir, ROOT_PACKAGE), 'utf8')) as RootPackage };
};

/** The template of the repository at `root`, read in place. */
export const templateAt = (root: string): Template => ({
  files: projectFilesAt(root),
  rootPackage: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as RootPackage,
});

/**
 * The template this CLI carries: dist/template/ when it runs built (from its package), the
 * repository's root when it runs from its sources (scripts/init/*.ts, in this repository).
 */
export const ownTemplate = (): Template =>
  import.meta.url.endsWith('.ts')
    ? templateAt(fileURLToPath(new URL('../../', import.meta.url)))
    : readTemplate(fileURLToPath(new URL('../template/', import.meta.url)));
