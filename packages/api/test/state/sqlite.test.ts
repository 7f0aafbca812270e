import { stateContract } from './contract/index.ts';
import { sqliteFactory } from './stores.ts';

stateContract(sqliteFactory);
