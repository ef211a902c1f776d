// What dev prints about the project's files before each reload: a function file whose name is no
// function name, one that does not build (and whether its registration is kept), a Worker entry
// that does not build. Each problem once, and its end when it is fixed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { brokenEntry, brokenFunctions } from '../project/builds.ts';
import { functionFiles } from '../project/generated.ts';

export interface ReportLines {
  say: (text: string) => void;
  fail: (text: string) => void;
  /** Whether the function of that name is registered (its registration is then kept). */
  registered: (name: string) => boolean;
}

/**
 * A reporter for the project at `root`: call it before each reload.
 * @example const report = buildReporter(root, { say, fail, registered: () => false }); await report();
 */
export const buildReporter = (root: string, { say, fail, registered }: ReportLines): (() => Promise<void>) => {
  let badBefore = new Set<string>();
  let brokenBefore = new Map<string, string>();
  let entryBefore = '';
  return async () => {
    const { names, badNames } = functionFiles(join(root, 'functions'));
    const broken = await brokenFunctions(root, names);
    const entry = await brokenEntry(root);
    const hadProblems = badBefore.size > 0 || brokenBefore.size > 0 || entryBefore !== '';
    for (const line of badNames) {
      if (!badBefore.has(line)) fail(`${line} (left out; the other functions are still served)`);
    }
    if (badBefore.size > 0 && badNames.length === 0) say('every function file has a valid name again.');
    for (const { file, message } of broken) {
      if (brokenBefore.get(file) === message) continue;
      const name = file.replace(/^functions\/(.*)\.ts$/, '$1');
      fail(
        registered(name)
          ? `${file} does not build, so the Worker leaves it out; ${name} keeps its last good registration on the local platform, and calls to it answer 503 (try again) until the file builds again:\n${message}`
          : `${file} does not build, so it is left out (the other functions are still served):\n${message}`,
      );
    }
    for (const file of brokenBefore.keys()) {
      if (!broken.some((b) => b.file === file) && existsSync(join(root, file))) say(`${file} builds again.`);
    }
    badBefore = new Set(badNames);
    brokenBefore = new Map(broken.map((b) => [b.file, b.message]));
    const entryNow = entry ? entry.message : '';
    const entryChanged = entryNow !== entryBefore;
    entryBefore = entryNow;
    if (hadProblems && badNames.length === 0 && broken.length === 0 && !entry) say('every file builds again.');
    if (entry && entryChanged) {
      fail(
        `The Worker cannot be built (${entry.file} or a file it imports), so nothing new can be served; calls wait for a build that works. Fix this:\n${entry.message}`,
      );
    }
  };
};
