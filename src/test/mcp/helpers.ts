import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mcpKey } from '../../keys.ts';
import { fixture } from '../fixture.ts';
import { ORIGIN, SECRET } from '../helpers.ts';

/** Every request of the SDK client goes to the fixture Worker's fetch handler (MCP on), inside workerd. */
export const workerFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  fixture.fetch(new Request(input, init));

export const MCP_URL = new URL('/mcp', ORIGIN);

/** The static bearer token of `/mcp` under the test secret. */
export const staticToken = () => mcpKey(SECRET);

/** The official SDK client, connected to the Worker's `/mcp` (the fixture's, or `fetch`'s) with `token`. */
export const connect = async (
  token: string,
  fetch: (request: Request) => Promise<Response> = workerFetch,
): Promise<Client> => {
  const client = new Client({ name: 'agent-functions-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(MCP_URL, {
    fetch: (input, init) => fetch(new Request(input, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
};

/**
 * Imports the MCP module (the SDK and the OAuth provider) once per test file, with room for a
 * loaded machine: the Worker imports it on its first MCP request, which would otherwise count
 * against the first test's time limit.
 */
export const MCP_IMPORT_TIMEOUT_MS = 60_000;
export const loadMcp = () => import('../../mcp/index.ts');
