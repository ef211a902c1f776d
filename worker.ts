// The Worker entry (wrangler.toml `main`), yours to edit: it hands the framework your functions and
// exports the Durable Object classes wrangler.toml binds. Remove an export with its binding.
import { functions } from './generated/functions.ts';
import { createWorker } from './src/worker.ts';

export { BookingCalendar } from './lib/calendar.ts';
export { ContactDirectory } from './lib/contacts.ts';
export { ReplayGuard } from './src/replay.ts';

export default createWorker({ functions }) satisfies ExportedHandler<Env>;
