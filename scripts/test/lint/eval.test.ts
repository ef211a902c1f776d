// npm run eval against a local fake model server: never a real model in npm test.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../eval/main.ts';
import type { LintSource } from '../../lint/functions.ts';
import { goodDefinition, registered } from './registered.ts';

const order = registered('lookup_order', goodDefinition());
const menu = registered('show_menu', {
  description: "Shows today's menu with prices. Call it when the customer asks what there is to eat. Not for orders.",
  parameters: z.object({}),
  annotations: { readOnlyHint: true },
});
const source: LintSource = {
  functions: async () => [order, menu],
  prompts: async () => ({
    lookup_order: {
      calls: [
        { say: 'Where is my order 10452?', args: { orderNumber: '10452' } },
        { say: 'Has order 777 shipped?', args: { orderNumber: '777' } },
      ],
      not: ['What is on the menu?'],
    },
  }),
};

interface Asked {
  authorization?: string;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    tools: { function: { name: string; description: string; parameters: unknown } }[];
  };
}
const asked: Asked[] = [];
let flaky = 0;
const toolCall = (name: string, args: object) => ({
  choices: [
    {
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
      },
    },
  ],
});
// Right every time for 10452 and the menu; for 777, right only on every third call.
const answer = (say: string) => {
  if (say.includes('10452')) return toolCall('lookup_order', { orderNumber: '#10452' });
  if (say.includes('777'))
    return flaky++ % 3 === 0 ? toolCall('lookup_order', { orderNumber: '777' }) : toolCall('show_menu', {});
  return toolCall('show_menu', {});
};
const read = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text);
};
// What the next answers are, when not the tool calls above.
let trouble: ('busy' | 'refuse' | 'huge' | 'echo')[] = [];
/** The key in the forms a body may carry it: JSON-escaped slashes, url-encoded. */
const echoed = (key: string) =>
  `{"error":"bad request from ${key.replaceAll('/', '\\/')} (${encodeURIComponent(key)}, ${encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())})"}`;
const server = createServer(async (request, response) => {
  const body = await read(request);
  asked.push({ authorization: request.headers.authorization, body });
  const next = trouble.shift();
  if (next === 'busy') return void response.writeHead(429).end('slow down');
  if (next === 'refuse')
    return void response
      .writeHead(401)
      .end(
        `{"error":"Incorrect API key provided: ${String(request.headers.authorization).replaceAll('/', '\\/')}","account":"acme-prod"}`,
      );
  if (next === 'echo') return void response.writeHead(400).end(echoed(String(request.headers.authorization).slice(7)));
  if (next === 'huge') return void response.writeHead(200).end('x'.repeat(2 * 1024 * 1024));
  const say = body.messages.at(-1).content as string;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(say)));
});
let env: NodeJS.ProcessEnv;

const run = async (argv: string[], environment = env) => {
  const out = new PassThrough();
  const err = new PassThrough();
  let text = '';
  let errors = '';
  out.on('data', (c) => (text += c));
  err.on('data', (c) => (errors += c));
  const code = await main(argv, { out, err, env: environment, source, root: '.' });
  return { code, text, errors };
};

describe('npm run eval (against a fake model server)', () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    env = {
      EVAL_MODEL_URL: `http://127.0.0.1:${port}/v1/chat/completions`,
      EVAL_MODEL_KEY: 'test-key-123',
      EVAL_MODEL: 'fake-1',
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks each prompt k times with every function as a tool and reports pass^k and pass@1 per function', async () => {
    const { code, text } = await run(['--k', '3', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(text) as {
      model: string;
      k: number;
      functions: { name: string; passK: number; pass1: number; prompts: { say: string; passed: number }[] }[];
    };
    expect(report).toMatchObject({ model: 'fake-1', k: 3 });
    const [score] = report.functions;
    expect(score?.name).toBe('lookup_order');
    // 10452 passes 3/3 ("#10452" is the same value), 777 passes 1/3, the negative 3/3.
    expect(score?.prompts.map((p) => p.passed)).toEqual([3, 1, 3]);
    expect(score?.passK).toBeCloseTo(2 / 3);
    expect(score?.pass1).toBeCloseTo(7 / 9);
    expect(asked).toHaveLength(9);
    const [first] = asked;
    expect(first?.authorization).toBe('Bearer test-key-123');
    expect(first?.body.model).toBe('fake-1');
    expect(first?.body.tools.map((t) => t.function)).toEqual([
      { name: 'lookup_order', description: order.description, parameters: order.jsonSchema },
      { name: 'show_menu', description: menu.description, parameters: menu.jsonSchema },
    ]);
  });

  it('says what the model did when a prompt fails, and never prints the key', async () => {
    const { text } = await run(['--k', '2']);
    expect(text).toContain('lookup_order');
    expect(text).toMatch(/should call: "Has order 777 shipped\?" passed \d\/2; the model called show_menu/);
    expect(text).not.toContain('test-key-123');
  });

  it('exits 1 when a function is under --min', async () => {
    flaky = 0; // the one call for 777 is right
    expect((await run(['--k', '1', '--min', '1'])).code).toBe(0);
    flaky = 1;
    expect((await run(['--k', '3', '--min', '0.9'])).code).toBe(1);
  });

  it('retries a 429, and stops on a refusal without printing the key or reading more than 1 MB', async () => {
    flaky = 0;
    trouble = ['busy'];
    expect((await run(['--k', '1', '--only', 'lookup_order'])).code).toBe(0);
    const escapedKey = { ...env, EVAL_MODEL_KEY: 'sk-proj/AbC123+secretPART/xyz' };
    trouble = ['refuse'];
    const refused = await run(['--k', '1'], escapedKey).catch((error: Error) => error.message);
    // Nothing of a 401 or 403 body: it is about the key, and may hold it in any form.
    expect(refused).toBe('The model answered 401: it refused the key (EVAL_MODEL_KEY).');
    trouble = ['echo'];
    const echoedBack = await run(['--k', '1'], escapedKey).catch((error: Error) => error.message);
    expect(echoedBack).toMatch(/^The model answered 400: /);
    expect(echoedBack).not.toContain('secretPART');
    trouble = ['huge'];
    await expect(run(['--k', '1'])).rejects.toThrow('The model answered more than 1 MB.');
  });

  it('refuses to run without a model in the environment, and bad options', async () => {
    const missing = await run([], {});
    expect(missing.code).toBe(2);
    expect(missing.errors).toContain('EVAL_MODEL_URL');
    expect((await run(['--k', '0'])).code).toBe(2);
  });
});

describe('npm run eval: where its settings come from', () => {
  it('reads .env at the project root, like sync, and names the model address it could not reach, and why', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { closedPort } = await import('../platform/helpers.ts');
    const port = await closedPort();
    const root = mkdtempSync(join(tmpdir(), 'eval-env-'));
    writeFileSync(
      join(root, '.env'),
      `EVAL_MODEL_URL=http://127.0.0.1:${port}/v1/chat/completions\nEVAL_MODEL=from-dotenv\n`,
    );
    const before = { url: process.env.EVAL_MODEL_URL, model: process.env.EVAL_MODEL };
    delete process.env.EVAL_MODEL_URL;
    delete process.env.EVAL_MODEL;
    try {
      const err = new PassThrough();
      await expect(main(['--k', '1'], { out: new PassThrough(), err, source, root })).rejects.toThrow(
        `The model at http://127.0.0.1:${port} could not be reached (ECONNREFUSED)`,
      );
    } finally {
      if (before.url !== undefined) process.env.EVAL_MODEL_URL = before.url;
      if (before.model !== undefined) process.env.EVAL_MODEL = before.model;
    }
  });
});
