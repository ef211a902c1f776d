// `agent-functions lint <what>`: the project's own checks beside biome, each part of `npm test`.
import { runFunctionLint } from './functions.ts';
import { runWorkflowLint } from './workflows.ts';

export const HELP = `Usage: agent-functions lint <what>

  workflows          checks .github/workflows/ with actionlint (offline)
  functions [--json] checks what the model reads of each function: the registered description
                     and parameters, confusable siblings and the golden prompts (offline;
                     docs/descriptions.md). Exit code 1 on any error; warnings are shown.
  -h, --help         this text
`;

/** `agent-functions lint`. */
export const main = async (argv: string[]): Promise<number> => {
  const [what, ...rest] = argv;
  if (what === '--help' || what === '-h' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  if (what === 'workflows' && rest.length === 0) return runWorkflowLint();
  if (what === 'functions' && rest.every((arg) => arg === '--json')) return runFunctionLint({ json: rest.length > 0 });
  process.stderr.write(`${what === undefined ? 'Say what to lint.' : `Unknown: "${argv.join(' ')}".`}\n\n${HELP}`);
  return 2;
};
