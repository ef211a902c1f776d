// One rule for a FUNCTIONS_SECRET that must not be used, shared by sync and the dev loop: every
// function key is derived from it, so a guessable one opens every function.

/** Shortest secret accepted: `openssl rand -base64 32` gives 44 characters. */
export const MIN_SECRET_LENGTH = 24;

const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?(me|this)|placeholder|your[-_ ]?secret|example/i;
const ONE_CHARACTER = /^(.)\1*$/;

/**
 * Why `secret` (read from `where`) must not be used, or undefined when it may.
 * @example weakSecretProblem('change-me-to-a-long-random-string', '.env') // 'FUNCTIONS_SECRET in .env is a placeholder ...'
 */
export const weakSecretProblem = (secret: string, where: string): string | undefined => {
  const fix = 'Set a random one: openssl rand -base64 32';
  if (PLACEHOLDER.test(secret) || ONE_CHARACTER.test(secret))
    return `FUNCTIONS_SECRET in ${where} is a placeholder, not a secret. ${fix}`;
  if (secret.length < MIN_SECRET_LENGTH) {
    return `FUNCTIONS_SECRET in ${where} is too short (${secret.length} characters; at least ${MIN_SECRET_LENGTH}). ${fix}`;
  }
  return undefined;
};
