// Versioned migrations of the state store, applied in order and recorded in
// `schema_migrations`. Never edit a released migration: add the next number.
import type { Migration } from './migration.ts';
import { initial } from './001_initial.ts';
import { sessions } from './002_sessions.ts';
import { faults } from './003_faults.ts';
import { informed } from './004_informed.ts';
import { speedState } from './005_speed_state.ts';
import { security } from './006_security.ts';
import { catalogVersions } from './007_catalog_versions.ts';
import { meterAggregates } from './008_meter_aggregates.ts';

export const MIGRATIONS: readonly Migration[] = [initial, sessions, faults, informed, speedState, security, catalogVersions, meterAggregates];
