// 008: meter events carry the usage of one customer in one second
// (docs/decisions/0435-meter-events-per-customer-second.md): each outbox row
// names the aggregate it is reported in, assigned once before its first send
// and never changed, so a resent aggregate has the same identifier and the
// same members, and the provider bills it once.
import type { Migration } from './migration.ts';

const sql = `
ALTER TABLE meter_outbox ADD COLUMN aggregate_id TEXT;
CREATE INDEX meter_outbox_aggregate ON meter_outbox (aggregate_id);
`;

export const meterAggregates: Migration = { version: 8, name: 'meter_aggregates', sqlite: sql, postgres: sql };
