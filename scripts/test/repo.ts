// Where the tests of the CLI find the repository: its root is also the example project.
import { fileURLToPath } from 'node:url';

/** The repository's root, which is the example project the CLI runs in. */
export const PROJECT_ROOT: string = fileURLToPath(new URL('../../', import.meta.url));
