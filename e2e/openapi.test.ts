// `npm run openapi` end to end: built from the manifest of the project's Worker (workerd), a third-party
// validator (@redocly/openapi-core, its recommended rules) finds no error in it, and finds errors
// in a deliberately broken copy, so the check can fail.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ManifestSource, main } from '../scripts/openapi/main.ts';
import { functionNames } from '../scripts/project/generated.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { agentFunctions, npmRunEnv } from './cli.ts';

const root = PROJECT_ROOT;
const run = promisify(execFile);

/** The validator's errors (warnings such as a missing license are the author's choice). */
const errorsOf = async (document: unknown) => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems.filter((problem) => problem.severity === 'error');
};

/** Runs main() with captured output. */
const capture = async (argv: string[], source?: ManifestSource) => {
  const out = new PassThrough();
  const err = new PassThrough();
  const code = await main(argv, { out, err, env: {}, ...(source ? { source } : {}) });
  return { code, out: String(out.read() ?? ''), err: String(err.read() ?? '') };
};

type Operation = { operationId: string; security: unknown[]; requestBody: unknown };
type Document = { servers: { url: string }[]; paths: Record<string, { post: Operation }> };

describe('npm run openapi', () => {
  let document: Document;
  let stdout: string;
  beforeAll(async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    ({ stdout } = await run(
      ...agentFunctions('openapi', '--out', out, '--server', 'https://fns.example.workers.dev/'),
      {
        cwd: root,
        env: npmRunEnv(root),
        timeout: 90_000,
      },
    ));
    document = JSON.parse(readFileSync(out, 'utf8')) as Document;
  }, 120_000);

  it('writes one operation per file in functions/, named after it', () => {
    const names = functionNames(join(root, 'functions'));
    expect(stdout).toContain(`(${names.length} operations, server https://fns.example.workers.dev)`);
    expect(Object.values(document.paths).map((path) => path.post.operationId)).toEqual(names);
    expect(document.servers).toEqual([{ url: 'https://fns.example.workers.dev' }]);
  });

  it('passes the third-party OpenAPI validator with 0 errors', async () => {
    expect(await errorsOf(document)).toEqual([]);
  });

  it('fails that validator once the document is broken', async () => {
    const broken = structuredClone(document);
    const [first] = Object.values(broken.paths).map((path) => path.post) as Operation[];
    if (!first) throw new Error('functions/ holds no function');
    // A second operation under the first one's id: one function is enough to break uniqueness.
    broken.paths['/functions/copy'] = { post: structuredClone(first) };
    first.security = [{ stolenKey: [] }];
    first.requestBody = { content: { 'application/json': { schema: { $ref: '#/components/schemas/missing' } } } };
    const rules = (await errorsOf(broken)).map((problem) => problem.ruleId);
    expect(rules).toEqual(
      expect.arrayContaining(['operation-operationId-unique', 'security-defined', 'no-unresolved-refs']),
    );
  });

  it('says why when the Worker cannot start, and exits 1', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'openapi-empty-'));
    const result = await capture(['--root', empty]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/The OpenAPI document could not be built: The Worker did not start: .*wrangler\.toml/);
  }, 60_000);

  it("passes on the Worker's message when a definition is invalid", async () => {
    const answer = {
      status: 500,
      text: JSON.stringify({ error: { code: 'invalid_definition', message: 'Function "mixed", parameter "when": …' } }),
    };
    const result = await capture(['--out', '-'], async () => answer);
    expect(result.code).toBe(1);
    expect(result.err).toContain('The Worker answered 500 to GET /functions: Function "mixed", parameter "when"');
    expect(result.out).toBe('');
  });

  it('prints its usage for --help, and refuses an unknown option or a bad server', async () => {
    const help = await capture(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run openapi -- \[--out FILE\]/);
    const unknown = await capture(['--outt', 'x.json']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("Unknown option '--outt'");
    const server = await capture(['--server', 'not a url']);
    expect(server.code).toBe(2);
    expect(server.err).toContain('is not a URL');
  });
});
