// agent-functions-cli/dev: what a project's dev.config.ts imports.
export type { DevConfig, DevSetup, DevSetupContext } from '../local/config.ts';
export { defineDevConfig } from '../local/config.ts';
