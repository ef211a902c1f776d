// Every file in functions/ (through the generated registry) translates into what the platform
// accepts: a broken new function fails here, before it can be synced.
import { testDefinitions } from 'agent-functions/testing';
import { functions } from '../generated/functions.ts';

testDefinitions(functions);
