// For the tests of dev's parts that run beside the Worker without starting it: the Worker's
// manifest as dev reads it, described by the framework's own module from the framework's test
// functions (src/test/fixtures/functions/, as sync's tests do), a small project whose functions/
// holds those functions, and dev's three kinds of line, kept.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AnyFunctionDefinition } from 'agent-functions';
import { describeFunction } from 'agent-functions/worker';
import type { ServedForCall } from '../../dev/howToCall.ts';
import type { ManifestRead } from '../../dev/workerManifest.ts';
import type { AccountsConfig } from '../../project/accounts.ts';
import { parseManifest } from '../../project/manifest.ts';
import { FIXTURE_NAMES } from '../project.ts';
import { PROJECT_ROOT } from '../repo.ts';

export const ORIGIN = 'http://127.0.0.1:18787';
export const SECRET = 'a-dev-session-secret-of-32-characters';

/** Three accounts: the agency's, a white-label client at its own address, a client with one function only. */
export const ACCOUNTS: AccountsConfig = {
  accounts: [
    { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
    { name: 'client-acme', apiKeyEnv: 'ACME_API_KEY', baseUrlEnv: 'ACME_BASE_URL' },
    { name: 'client-bolt', apiKeyEnv: 'BOLT_API_KEY', functions: ['tell_time'] },
  ],
};

const FIXTURES = join(PROJECT_ROOT, 'src', 'test', 'fixtures', 'functions');

/** What the Worker's GET /functions answers when it serves `names` (default: every fixture function). */
export const manifestOf = async (names: string[] = FIXTURE_NAMES): Promise<ManifestRead> => {
  // Imported by a computed path: the fixtures are Worker code, checked by the framework's tsconfig, not this one.
  const { FIXTURE_FUNCTIONS } = (await import(join(FIXTURES, 'index.ts'))) as {
    FIXTURE_FUNCTIONS: Record<string, AnyFunctionDefinition>;
  };
  const text = JSON.stringify({
    functions: names.map((name) => describeFunction(name, FIXTURE_FUNCTIONS[name] as AnyFunctionDefinition)),
  });
  return { served: parseManifest(200, text), full: (JSON.parse(text) as { functions: ServedForCall[] }).functions };
};

/** A project folder whose functions/ holds the fixture functions, each a one-line file, and a Worker entry. */
export const smallProject = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'dev-parts-'));
  mkdirSync(join(root, 'functions'));
  writeFileSync(join(root, 'wrangler.toml'), 'main = "worker.ts"\n');
  writeFileSync(join(root, 'worker.ts'), 'export default {};\n');
  for (const name of FIXTURE_NAMES) {
    writeFileSync(
      join(root, 'functions', `${name}.ts`),
      `export { default } from '${join(FIXTURES, `${name}.ts`)}';\n`,
    );
  }
  return root;
};

/** What dev said, warned and failed, in order; and streams for sync's own output, kept apart. */
export const lines = () => {
  const said: Array<['say' | 'warn' | 'fail', string]> = [];
  const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  return {
    said,
    say: (text: string) => void said.push(['say', text]),
    warn: (text: string) => void said.push(['warn', text]),
    fail: (text: string) => void said.push(['fail', text]),
    stdout: quiet(),
    stderr: quiet(),
  };
};
