// `agent-functions generate`: writes the registries the Worker imports (src of it: the project
// model's generated.ts), and with --types or --check the Env type of wrangler.toml.
import { join } from 'node:path';
import { eventTypes, generateForBuild, generateTypes } from '../project/generated.ts';
import { projectRoot } from '../project/paths.ts';

export const HELP = `Usage: agent-functions generate [--types | --check]

Writes generated/functions.ts, generated/events.ts and generated/accounts.ts, the registries the
Worker imports, from the files in functions/ and events/ and the accounts of platform.accounts*.json. wrangler runs it
before every build; tests and dev run it too.

  --types   also write worker-configuration.d.ts (the Env type) from wrangler.toml (wrangler types)
  --check   also fail when worker-configuration.d.ts no longer matches wrangler.toml
  -h, --help  this text
`;

/** `agent-functions generate`. */
export const main = async (argv: string[]): Promise<number> => {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const unknown = argv.find((arg) => arg !== '--types' && arg !== '--check');
  if (unknown !== undefined) {
    process.stderr.write(`Unknown option "${unknown}".\n\n${HELP}`);
    return 2;
  }
  const root = projectRoot();
  let names: string[];
  try {
    names = await generateForBuild(root);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  if (argv.includes('--types')) {
    // npm run generate: what it wrote (the build's own run, without --types, stays quiet).
    const status = generateTypes({ base: root });
    if (status !== 0) return status;
    const types = eventTypes(join(root, 'events'));
    process.stdout.write(
      [
        `generated/functions.ts: ${names.length} functions (${names.join(', ') || 'none'})`,
        `generated/events.ts: ${types.length} event types${types.length ? ` (${types.join(', ')})` : ''}`,
        'worker-configuration.d.ts: the Env type, from wrangler.toml and .dev.vars.example',
        '',
      ].join('\n'),
    );
    return 0;
  }
  if (argv.includes('--check')) return generateTypes({ check: true, base: root });
  return 0;
};
