// The example project's declared secrets and vars, read from its Worker as deploy reads them
// (workerd starts: seconds), are all named in .dev.vars.example, so a newcomer's copy holds them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsAccountsOf, loadAccountsConfig } from '../scripts/project/accounts.ts';
import { eventTypes } from '../scripts/project/generated.ts';
import { readManifest } from '../scripts/project/manifest.ts';
import { eventsSettings, settingsOf } from '../scripts/secrets/settings.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';

describe('the project declarations', () => {
  it('are all named in .dev.vars.example', async () => {
    const served = await readManifest({ secret: 'test-secret', root: PROJECT_ROOT });
    const accounts = eventsAccountsOf(loadAccountsConfig(join(PROJECT_ROOT, 'platform.accounts.json')));
    const settings = settingsOf(served, eventsSettings(eventTypes(join(PROJECT_ROOT, 'events')), accounts));
    const example = readFileSync(join(PROJECT_ROOT, '.dev.vars.example'), 'utf8');
    expect(settings.map((s) => s.name)).toContain('FUNCTIONS_SECRET');
    expect(settings.filter((s) => !new RegExp(`^#? ?${s.name}=`, 'm').test(example)).map((s) => s.name)).toEqual([]);
  }, 60_000);
});
