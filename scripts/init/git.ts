// A new project starts as a git repository with a first commit (packages/ included, which CI
// installs from), unless its folder is already inside a repository: then its files are left for
// that repository's owner to add.
import { spawnSync } from 'node:child_process';

/** The first commit's message. */
export const FIRST_COMMIT = 'A new project of agent functions (agent-functions init)';

const git = (dir: string, args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });

/**
 * Makes `dir` a git repository with every file in one first commit; returns the line to print.
 * @example firstCommit('/home/me/acme') // 'Made a git repository with a first commit.'
 */
export const firstCommit = (dir: string): string => {
  const inside = git(dir, ['rev-parse', '--is-inside-work-tree']);
  if (inside.error) return 'git was not found: the project is not under version control yet (git init).';
  if (inside.status === 0 && inside.stdout.trim() === 'true') {
    return 'The folder is inside a git repository already: add the project to it (git add).';
  }
  const init = git(dir, ['init', '--quiet']);
  if (init.status !== 0) return `git init failed: ${init.stderr.trim().split('\n')[0]}`;
  git(dir, ['add', '--all']);
  const commit = git(dir, ['commit', '--quiet', '--message', FIRST_COMMIT]);
  if (commit.status !== 0) {
    const why = (commit.stderr || commit.stdout).trim().split('\n')[0];
    return `Made a git repository; the first commit failed (${why}): git commit -m "First commit".`;
  }
  return 'Made a git repository with a first commit.';
};
