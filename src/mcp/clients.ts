// The owner's view of the OAuth clients of /mcp: GET /oauth/clients lists them with their grants,
// DELETE /oauth/clients/<id> revokes one (its registration, grants and tokens). Guarded like the
// manifest, by the manifest key, so `agent-functions mcp clients|revoke` reaches them as sync does.

import type { OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { bearerToken } from '../bearerToken.ts';
import type { Env } from '../env.ts';
import { isManifestKey } from '../keys.ts';

/** Where the owner's endpoints live. */
export const CLIENTS_PATH = '/oauth/clients';

/** The one user this authorization server knows (the owner who approves every client). */
export const OWNER = 'owner';

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

const refused = () =>
  json(
    {
      error: {
        code: 'unauthorized',
        message:
          'Listing and revoking OAuth clients needs "Authorization: Bearer <manifest key>" (agent-functions mcp sends it).',
      },
    },
    401,
  );

/** Every page of a listing of the provider. */
const all = async <T>(list: (cursor?: string) => Promise<{ items: T[]; cursor?: string }>): Promise<T[]> => {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return items;
};

/**
 * Answers GET /oauth/clients and DELETE /oauth/clients/<id> for the holder of the manifest key.
 * @example if (url.pathname.startsWith(CLIENTS_PATH)) return clients(request, env, env.OAUTH_PROVIDER)
 */
export const clients = async (request: Request, env: Env, oauth: OAuthHelpers): Promise<Response> => {
  const token = bearerToken(request);
  if (!env.FUNCTIONS_SECRET || !token || !(await isManifestKey(env.FUNCTIONS_SECRET, token))) return refused();
  const id = decodeURIComponent(new URL(request.url).pathname.slice(CLIENTS_PATH.length + 1));
  if (request.method === 'GET' && id === '') {
    const grants = await all((cursor) => oauth.listUserGrants(OWNER, cursor ? { cursor } : {}));
    const registered = await all((cursor) => oauth.listClients(cursor ? { cursor } : {}));
    return json({
      clients: registered.map((client) => ({
        clientId: client.clientId,
        clientName: client.clientName ?? null,
        redirectUris: client.redirectUris,
        registeredAt: client.registrationDate ? new Date(client.registrationDate * 1000).toISOString() : null,
        grants: grants.filter((grant) => grant.clientId === client.clientId).length,
      })),
    });
  }
  if (request.method === 'DELETE' && id !== '') {
    if (!(await oauth.lookupClient(id))) return json({ error: { code: 'not_found', message: 'No such client.' } }, 404);
    await oauth.deleteClient(id);
    return json({ revoked: id });
  }
  return json(
    { error: { code: 'method_not_allowed', message: 'GET /oauth/clients lists; DELETE /oauth/clients/<id> revokes.' } },
    405,
  );
};
