// Settings of the project's own functions for the tests' Worker (vitest.config.ts passes them to
// workerd). Work that runs outside a call, such as a deferred call's workflow, reads the Worker's
// own env, not the env a test calls with: whatever it needs is set here.
export const projectBindings: Record<string, string> = {
  // get_order_status's store (its deferred look-up runs on the DEFERRED_CALLS workflow).
  STORE_API_URL: 'https://store.test/api',
  STORE_API_KEY: 'test-store-key',
};
