// agent-functions-cli/dev: what a project's dev.config.ts imports.
export type { DevConfig, DevSetup, DevSetupContext } from './config.ts';
export { defineDevConfig } from './config.ts';
