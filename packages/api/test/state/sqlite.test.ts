import { stateContract } from './contract.ts';
import { sqliteFactory } from './stores.ts';

stateContract(sqliteFactory);
