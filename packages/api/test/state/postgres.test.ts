// Runs only when TEST_DATABASE_URL names a PostgreSQL database (.ci/run sets it).
import { stateContract } from './contract/index.ts';
import { postgresFactory } from './stores.ts';

stateContract(postgresFactory);
