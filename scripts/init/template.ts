// The example project that `agent-functions init` copies is this repository's root, not a copy kept
// in the CLI: the build (tsdown.config.ts) writes the root's project files into dist/template/, and
// the sources read the root itself. This module is the one list of which root entries are the
// project's and which are the repository's own; scripts/test/init.test.ts fails when a root entry
// is in neither, so a file added to the example project cannot be left out of new projects unseen.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root entries that are the example project: a new project gets each, folders whole. */
export const PROJECT_ENTRIES = [
  '.dev.vars.example',
  '.env.example',
  '.github',
  '.gitignore',
  '.npmrc',
  'biome.json',
  'dev',
  'dev.config.ts',
  'events',
  'functions',
  'lib',
  'platform.accounts.json',
  'test',
  'tsconfig.json',
  'tsconfig.node.json',
  'vitest.config.ts',
  'worker-configuration.d.ts',
  'worker.ts',
  'wrangler.toml',
] as const;

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

/** The example project's files in the repository at `root` (PROJECT_ENTRIES that exist there). */
export const projectFilesAt = (root: string): Files => {
  const files: Files = new Map();
  for (const entry of PROJECT_ENTRIES) {
    const path = join(root, entry);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path, entry, files);
    else files.set(entry, readFileSync(path));
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
