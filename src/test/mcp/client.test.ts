// The official MCP SDK client against the fixture Worker in workerd: every function is a tool,
// described from the same manifest sync registers, and a call runs the same pipeline as an HTTP call.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manifestKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { FIXTURE_FUNCTIONS, send } from '../fixture.ts';
import { SECRET } from '../helpers.ts';
import { connect, loadMcp, MCP_IMPORT_TIMEOUT_MS, staticToken } from './helpers.ts';

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

type Served = { name: string; description: string; jsonSchema: object; annotations?: object };

const manifest = async (): Promise<Served[]> => {
  const response = await send('/functions', { headers: { authorization: `Bearer ${await manifestKey(SECRET)}` } });
  return ((await response.json()) as { functions: Served[] }).functions;
};

describe('the MCP server, through the official SDK client', () => {
  it('lists every function as a tool with the manifest description, JSON Schema and annotations', async () => {
    client = await connect(await staticToken());
    const { tools } = await client.listTools();
    const served = await manifest();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(FIXTURE_FUNCTIONS).sort());
    for (const fn of served) {
      const tool = tools.find((t) => t.name === fn.name);
      expect(tool?.description).toBe(fn.description);
      expect(tool?.inputSchema).toEqual(fn.jsonSchema);
      // The author's hints, and whether it writes (its effect) when they do not say.
      expect(tool?.annotations).toEqual({ readOnlyHint: expect.any(Boolean), ...fn.annotations });
    }
    expect(tools.find((t) => t.name === 'tell_time')?.annotations).toEqual({ readOnlyHint: true });
    expect(tools.find((t) => t.name === 'quote_plan')?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === 'cancel_plan')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('calls quote_plan and returns its result as text and as structured content', async () => {
    client = await connect(await staticToken());
    const result = await client.callTool({ name: 'quote_plan', arguments: { plan: 'growth', seats: '3' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ plan: 'growth', seats: 3, totalCents: 8700 });
    const [content] = result.content as { type: string; text: string }[];
    expect(JSON.parse(content?.text ?? '')).toEqual(result.structuredContent);
  });

  it('turns a refusal into an isError result carrying the 422 message the model reads', async () => {
    client = await connect(await staticToken());
    const lines: string[] = [];
    const previous = setLogSink((line) => lines.push(line));
    try {
      const result = await client.callTool({ name: 'quote_plan', arguments: { plan: 'growth' } });
      expect(result.isError).toBe(true);
      const [content] = result.content as { type: string; text: string }[];
      expect(content?.text).toMatch(/^The function was not called because one argument is wrong\. "seats"/);
      expect(content?.text).toMatch(/ask the customer/);
    } finally {
      setLogSink(previous);
    }
    const invocation = lines.map((line) => JSON.parse(line)).find((entry) => entry.event === 'invocation');
    expect(invocation).toMatchObject({ function: 'quote_plan', outcome: 'refused', status: 422, transport: 'mcp' });
  });

  it('answers an unknown tool with a protocol error', async () => {
    client = await connect(await staticToken());
    await expect(client.callTool({ name: 'no_such_function', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
