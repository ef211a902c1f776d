// What a feature serves beside the functions: its paths, each with its handler. Below the call and
// the features, so a feature's own folder (accounts/, events/) can name it without reaching up.
import type { Env } from './env.ts';

/** A request the Worker routes to a feature, with the id its answer and log lines carry. */
export type RoutedRequest = Request & { requestId: string };

/**
 * A path a feature serves beside the functions (`/approvals/*`: it and every path under it;
 * trailing slashes do not count), its handler, and its method when only one. Each opt-in feature
 * brings its own, so the Worker's router holds nothing of a feature left out.
 */
export type FeatureRoute = [
  path: string,
  handler: (request: RoutedRequest, env: Env, ctx: ExecutionContext) => Response | Promise<Response>,
  method?: string,
];
