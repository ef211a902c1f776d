// After sync applied (or --status looked), one keyed read of the deployed Worker's manifest at
// FUNCTIONS_BASE_URL: the key is derived from the same FUNCTIONS_SECRET as every url just
// registered, so a Worker that refuses it refuses every call the platform will make.
import { manifestKey } from 'agent-functions/worker';
import { parseManifest, refusedAnswer, type ServedFunction } from '../project/manifest.ts';

/** What the Worker made of the key: accepted, refused, or no verdict (not reachable, or not ours). */
export interface WorkerCheck {
  verdict: 'accepted' | 'refused' | 'unknown';
  /** One line (or two) for a person. */
  message: string;
  status: number | null;
}

const TIMEOUT_MS = 10_000;
/** A refusal is read once more after this pause: a secret put just before (the release workflow) may not have reached every location yet. */
const CONFIRM_AFTER_MS = 2000;

/**
 * GETs `${origin}/functions` with the manifest key of `secret`, and says what that means; a
 * refusal is confirmed by a second read before it is reported.
 * @example const check = await checkWorker('https://fns.example.dev', secret, served)
 */
export const checkWorker = async (
  origin: string,
  secret: string,
  served: readonly ServedFunction[],
  options: { env?: string | undefined; fetchWorker?: typeof fetch; confirmAfterMs?: number } = {},
): Promise<WorkerCheck> => {
  const first = await readOnce(origin, secret, served, options);
  if (first.verdict !== 'refused') return first;
  await new Promise((resolve) => setTimeout(resolve, options.confirmAfterMs ?? CONFIRM_AFTER_MS));
  return readOnce(origin, secret, served, options);
};

const readOnce = async (
  origin: string,
  secret: string,
  served: readonly ServedFunction[],
  options: { env?: string | undefined; fetchWorker?: typeof fetch },
): Promise<WorkerCheck> => {
  const fetchWorker = options.fetchWorker ?? fetch;
  const put = `npm run secrets -- put${options.env ? ` --env ${options.env}` : ''}`;
  const file = options.env ? `.env.${options.env}` : '.env';
  let response: Response;
  let text: string;
  try {
    response = await fetchWorker(`${origin}/functions`, {
      headers: { authorization: `Bearer ${await manifestKey(secret)}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = (await response.text()).slice(0, 1024 * 1024);
  } catch (error) {
    const cause =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : String((error as Error).cause ?? (error as Error).message);
    return {
      verdict: 'unknown',
      status: null,
      message: `Could not reach the Worker at ${origin} to check its keys (${cause.slice(0, 200)}). If it is not deployed yet: npm run deploy, then npm run sync -- --status.`,
    };
  }
  const { status } = response;
  if (status === 401 || status === 403) {
    return {
      verdict: 'refused',
      status,
      message: `The Worker at ${origin} refused the manifest key of this FUNCTIONS_SECRET (${status}), so every url just registered answers ${status} too: the Worker's FUNCTIONS_SECRET is another one. Make them one: ${put} puts the value sync read (${file}, or the environment) on the Worker; or put the Worker's value in ${file}. Then npm run sync again.`,
    };
  }
  if (status === 503) {
    return {
      verdict: 'refused',
      status,
      message: `The Worker at ${origin} has no FUNCTIONS_SECRET (503), so every call answers 503: ${put} puts the value sync read (${file}, or the environment) on it; then npm run sync again.`,
    };
  }
  if (status !== 200) {
    return {
      verdict: 'unknown',
      status,
      message: `Could not check the Worker's keys: ${refusedAnswer('/functions', status, text).message}`,
    };
  }
  let deployed: ServedFunction[];
  try {
    deployed = parseManifest(status, text);
  } catch {
    return {
      verdict: 'unknown',
      status,
      message: `${origin}/functions answered 200 but not with a manifest: is FUNCTIONS_BASE_URL this project's Worker?`,
    };
  }
  const names = new Set(deployed.map((fn) => fn.name));
  const notDeployed = served.filter((fn) => !names.has(fn.name)).map((fn) => fn.name);
  const lag = notDeployed.length
    ? ` It does not serve ${notDeployed.join(', ')} yet (their urls answer 404 until npm run deploy).`
    : '';
  return {
    verdict: 'accepted',
    status,
    message: `The Worker at ${origin} accepts the keys: its manifest answered 200 to this FUNCTIONS_SECRET's key.${lag}`,
  };
};
