// Which generation of the Worker's secrets an OAuth grant was approved under. A grant's props carry
// an HMAC of MCP_OWNER_SECRET under FUNCTIONS_SECRET; every request with an OAuth token checks it,
// so rotating either secret cuts off every client approved before (its access and refresh tokens
// alike), with no list to keep and nothing to delete.
import type { Env } from '../env.ts';
import { hmacKey, safeEqual, toBase64Url } from '../keys.ts';

/** What a grant of this Worker holds (props of workers-oauth-provider). */
export interface GrantProps {
  owner: true;
  /** The secrets' generation it was approved under (grantGeneration). */
  generation: string;
  /** The OAuth client it was approved for: its MCP tasks are its own. */
  clientId?: string;
}

/**
 * The generation of the Worker's current secrets, or undefined while either is unset.
 * @example props: { owner: true, generation: await grantGeneration(env) }
 */
export const grantGeneration = async (env: Env): Promise<string | undefined> => {
  if (!env.FUNCTIONS_SECRET || !env.MCP_OWNER_SECRET) return undefined;
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(env.FUNCTIONS_SECRET),
    new TextEncoder().encode(`mcp-grant:${env.MCP_OWNER_SECRET}`),
  );
  return toBase64Url(mac);
};

/** Whether `props` come from a grant approved under the Worker's current secrets (constant time). */
export const isCurrentGrant = async (props: unknown, env: Env): Promise<boolean> => {
  const generation = (props as Partial<GrantProps> | undefined)?.generation;
  const current = await grantGeneration(env);
  return typeof generation === 'string' && current !== undefined && (await safeEqual(generation, current));
};
