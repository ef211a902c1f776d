// The emulator playing the agent: it calls a registered function's url the way the platform would
// (POST, JSON arguments, signed when configured) and reports the answer; the CLI prints it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { verifyWebhook } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../repo.ts';
import { clientOf, keyOf, raw, useEmulator } from './helpers.ts';
import { startReceiver } from './receiver.ts';

/** The CLI as `npm run platform` runs it (its sources, on this Node). */
const BIN = join(PROJECT_ROOT, 'scripts', 'bin.ts');

const SIGNING_SECRET = 'test-signing-secret';
const emulator = useEmulator({ functionSigningSecret: SIGNING_SECRET });
let fn: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  fn = await startReceiver(({ body }) => {
    const { name } = JSON.parse(body) as { name?: string };
    return name
      ? { status: 200, body: { greeting: `Hello, ${name}!` } }
      : { status: 422, body: { error: { code: 'invalid_arguments' } } };
  });
  const { client } = clientOf(emulator.current);
  await client.customFunctions.create({
    name: 'greet',
    description: 'Greets a customer by name.',
    url: `${fn.url}/functions/greet?key=secret-function-key`,
    parameters: { name: 'string' },
  });
});
afterAll(() => fn.close());

/** Runs the CLI (the project's Node 24) and collects its output. */
const cli = (...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'platform', ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

describe('the emulator plays the agent', () => {
  it('POSTs the arguments to the function url, signed, and reports status and body without the key', async () => {
    const response = await raw(emulator.current, '/_emulator/call', {
      method: 'POST',
      body: JSON.stringify({ name: 'greet', arguments: { name: 'Ada' } }),
    });
    expect(response.status).toBe(200);
    const outcome = (await response.json()) as Record<string, unknown>;
    expect(outcome).toMatchObject({ function: 'greet', status: 200, body: { greeting: 'Hello, Ada!' } });
    expect(outcome.url).toBe(`${fn.url}/functions/greet?key=***`);
    const call = fn.received.at(-1);
    expect(call).toMatchObject({ method: 'POST', url: '/functions/greet?key=secret-function-key' });
    const { contactId, conversationId, channel, ...args } = JSON.parse(call?.body ?? '{}') as Record<string, string>;
    expect(args).toEqual({ name: 'Ada' });
    // The conversation the platform adds beside the arguments (docs/platform-contract.md §9).
    expect(outcome.conversation).toEqual({ contactId, conversationId, channel: 'whatsapp' });
    expect(conversationId).toBe(`cv_${contactId}`);
    const verdict = await verifyWebhook(
      SIGNING_SECRET,
      call?.headers['x-webhook-timestamp'] as string,
      call?.headers['x-webhook-signature'] as string,
      call?.body ?? '',
    );
    expect(verdict).toBe('ok');
  });

  it('adds the conversation the call names, and re-issues it while the first runs (a barge-in)', async () => {
    const { client } = clientOf(emulator.current);
    const contact = await client.contacts.create({ name: 'Ann', phone: '+447700900123', channel: 'telegram' });
    const before = fn.received.length;
    const response = await raw(emulator.current, '/_emulator/call', {
      method: 'POST',
      body: JSON.stringify({
        name: 'greet',
        arguments: { name: 'Ann' },
        contactId: contact.id,
        conversationId: 'cv_42',
        reissue: { count: 2 },
      }),
    });
    const outcome = (await response.json()) as { conversation: unknown; reissued: Array<{ status: number }> };
    expect(outcome.conversation).toEqual({ contactId: contact.id, conversationId: 'cv_42', channel: 'telegram' });
    expect(outcome.reissued.map((r) => r.status)).toEqual([200, 200]);
    const bodies = fn.received.slice(before).map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies).toEqual(
      Array.from({ length: 3 }, () => ({
        name: 'Ann',
        contactId: contact.id,
        conversationId: 'cv_42',
        channel: 'telegram',
      })),
    );
  });

  it('gives up waiting past the answer deadline, as the platform would', async () => {
    const slow = await startReceiver(async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { status: 200, body: { late: true } };
    });
    try {
      const { client } = clientOf(emulator.current);
      await client.customFunctions.create({
        name: 'slow_greet',
        description: 'Greets slowly, for the deadline test.',
        url: `${slow.url}/functions/slow_greet?key=k`,
        parameters: {},
      });
      const response = await raw(emulator.current, '/_emulator/call', {
        method: 'POST',
        body: JSON.stringify({ name: 'slow_greet', deadlineMs: 100 }),
      });
      expect(await response.json()).toMatchObject({ status: null, error: 'no answer within 100 ms' });
    } finally {
      await slow.close();
    }
  });

  it('answers 404 listing the registered names when the function is unknown', async () => {
    const response = await raw(emulator.current, '/_emulator/call', {
      method: 'POST',
      body: JSON.stringify({ name: 'nope' }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('Registered: greet');
  });

  it('looks the name up in the calling account only', async () => {
    const response = await raw(emulator.current, '/_emulator/call', {
      method: 'POST',
      key: keyOf(emulator.current, 'agency'),
      body: JSON.stringify({ name: 'greet' }),
    });
    expect(response.status).toBe(404);
  });

  it('prints the answer with `npm run platform -- call`', async () => {
    const { code, stdout } = await cli(
      'call',
      'greet',
      '{"name":"Grace"}',
      '--account',
      'business',
      '--url',
      emulator.current.url,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('200');
    expect(stdout).toContain('"greeting": "Hello, Grace!"');
    expect(stdout).not.toContain('secret-function-key');
  });

  it('exits non-zero when the function refuses the call', async () => {
    const { code, stdout } = await cli('call', 'greet', '{}', '--account', 'business', '--url', emulator.current.url);
    expect(code).toBe(1);
    expect(stdout).toContain('422');
  });

  it('explains how to start the emulator when none is running', async () => {
    const { code, stderr } = await cli('call', 'greet', '{}', '--url', 'http://127.0.0.1:9');
    expect(code).toBe(2);
    expect(stderr).toContain('npm run platform');
  });

  it('prints usage with --help', async () => {
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/call <name>[\s\S]*--port <n>/);
  });

  it('starts from the command line with the seeded keys shown, and serves them', async () => {
    const child = spawn(process.execPath, [BIN, 'platform', '--port', '0', '--key', 'business=cli-test-key'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk) => {
          text += chunk;
          if (text.includes('Try:')) resolve(text);
        });
        child.on('close', () => reject(new Error(`exited early: ${text}`)));
      });
      expect(output).toContain('cli-test-key');
      expect(output).toContain('local-agency-key');
      expect(output).toMatch(/Legacy.*403/);
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const response = await fetch(`${url}/v1/contacts`, { headers: { 'x-api-key': 'cli-test-key' } });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
