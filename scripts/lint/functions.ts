// `agent-functions lint functions [--json]`: the description linter on the project's registered form.
import { styleText } from 'node:util';
import { ManifestError } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';
import { envTypeGaps } from './envTypes.ts';
import { formatReport, lintFunctions } from './index.ts';
import { loadPrompts, PromptsError, servedFunctions } from './load.ts';
import type { LintFunction, LintReport, PromptSet } from './types.ts';

/** Where the functions and prompts come from (tests give their own). */
export interface LintSource {
  functions(root: string): Promise<LintFunction[]>;
  prompts(root: string): Promise<PromptSet>;
}

const fromProject: LintSource = { functions: servedFunctions, prompts: loadPrompts };

/** Runs the linter; exit code 1 when there is an error, 2 when the functions could not be read. */
export const runFunctionLint = async (
  options: { json?: boolean; root?: string },
  io: { out?: NodeJS.WritableStream; err?: NodeJS.WritableStream; source?: LintSource } = {},
): Promise<number> => {
  const { out = process.stdout, err = process.stderr, source = fromProject } = io;
  const root = options.root ?? projectRoot();
  let report: LintReport;
  let gaps: string[];
  try {
    const [functions, prompts] = await Promise.all([source.functions(root), source.prompts(root)]);
    report = lintFunctions(functions, prompts);
    gaps = envTypeGaps(root, functions);
  } catch (error) {
    if (error instanceof ManifestError || error instanceof PromptsError) {
      err.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.json) out.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const paint = (color: 'red' | 'yellow') => (s: string) =>
      styleText(color, s, { stream: out, validateStream: true });
    out.write(`${formatReport(report, { red: paint('red'), yellow: paint('yellow') })}\n`);
  }
  for (const gap of gaps) err.write(`${styleText('red', gap, { stream: err, validateStream: true })}\n`);
  return report.errors > 0 || gaps.length > 0 ? 1 : 0;
};
