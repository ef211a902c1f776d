// One rule for a secret that must not be used, shared by the Worker (MCP_OWNER_SECRET: a guessable
// one approves any client) and the CLI (FUNCTIONS_SECRET in sync and dev: every function key is
// derived from it, so a guessable one opens every function).

/** Shortest secret accepted: `openssl rand -base64 32` gives 44 characters. */
export const MIN_SECRET_LENGTH = 24;

const PLACEHOLDER: RegExp = /change[-_ ]?me|replace[-_ ]?(me|this)|placeholder|your[-_ ]?secret|example/i;
const ONE_CHARACTER: RegExp = /^(.)\1*$/;

/**
 * Why secret `name` (read from `where`) must not be used, or undefined when it may.
 * @example weakSecretProblem('change-me-to-a-long-random-string', '.env') // 'FUNCTIONS_SECRET in .env is a placeholder ...'
 */
export const weakSecretProblem = (secret: string, where: string, name = 'FUNCTIONS_SECRET'): string | undefined => {
  const fix = 'Set a random one: openssl rand -base64 32';
  if (PLACEHOLDER.test(secret) || ONE_CHARACTER.test(secret))
    return `${name} in ${where} is a placeholder, not a secret. ${fix}`;
  if (secret.length < MIN_SECRET_LENGTH) {
    return `${name} in ${where} is too short (${secret.length} characters; at least ${MIN_SECRET_LENGTH}). ${fix}`;
  }
  return undefined;
};
