// The change feed, dataset versions and a programme's history.
import { Type } from 'typebox';
import { Nullable } from './common.ts';

export const FieldChange = Type.Object(
  { field: Type.String(), old: Type.Unknown({ description: 'value before (null when absent)' }), new: Type.Unknown({ description: 'value after' }) },
  { $id: 'FieldChange' },
);

export const ChangeEvent = Type.Object(
  {
    id: Type.String({ description: 'stable id of the event, `chg_<sequence>`' }),
    type: Type.String({ description: '`<kind>.<change>`: program.created, program.amended, program.removed, and the same for enforcement, tax_ruleset, law' }),
    kind: Type.String({ description: '`program`, `enforcement`, `tax_ruleset` or `law`' }),
    record_id: Type.String({ description: 'unified_id of a programme or tax ruleset, enforcement_id, law_slug (else law_id) of a law' }),
    title: Nullable(Type.String({ description: "the record's name (its last name when removed)" })),
    prefecture: Nullable(Type.String()),
    version: Type.Integer({ description: 'the dataset version that recorded it' }),
    recorded_at: Type.String({ description: 'when that version was recorded (UTC)' }),
    changes: Nullable(Type.Array(FieldChange, { description: 'amended records: each changed field with its old and new value' })),
  },
  { $id: 'ChangeEvent', additionalProperties: false },
);

export const DatasetVersion = Type.Object(
  {
    version: Type.Integer(),
    fingerprint: Type.String({ description: "SHA-256 over the tracked records' content hashes" }),
    baseline: Type.Boolean({ description: 'the first version: the state later versions are compared with; it records no events' }),
    recorded_at: Type.String(),
    counts: Type.Record(Type.String(), Type.Integer(), { description: 'records per kind in this version' }),
    change_counts: Type.Object({ created: Type.Integer(), amended: Type.Integer(), removed: Type.Integer() }),
    cursor: Type.String({ description: "feed cursor just after this version's events (pass as `since` to follow from here)" }),
  },
  { $id: 'DatasetVersion', additionalProperties: false },
);

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "Opaque cursor (`next_cursor` of an earlier page or a version's `cursor`); absent: from the start of the feed.",
      }),
    ),
    kind: Type.Optional(
      Type.Array(Type.String({ maxLength: 40 }), {
        maxItems: 16,
        description: 'Repeatable or comma-separated: a kind (`program`, `enforcement`, `tax_ruleset`, `law`) or an event type (`program.created`, …).',
      }),
    ),
    prefecture: Type.Optional(Type.String({ maxLength: 20, description: 'Exact prefecture name of the record, e.g. 東京都.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Events per page, 1 to 500 (default 100).' })),
  },
  { additionalProperties: false },
);

export const ChangesResponse = Type.Object(
  {
    results: Type.Array(ChangeEvent),
    next_cursor: Type.String({ description: 'pass as `since` for the next page; also when results is empty (poll with it later)' }),
    has_more: Type.Boolean({ description: 'more events follow now' }),
    latest_version: Nullable(DatasetVersion),
  },
  { $id: 'ChangesResponse' },
);

export const VersionsResponse = Type.Object({ results: Type.Array(DatasetVersion) }, { $id: 'DatasetVersionsResponse' });

export const ProgramHistory = Type.Object(
  {
    unified_id: Type.String(),
    in_catalogue: Type.Boolean({ description: 'the programme is in the catalogue served now' }),
    versions: Type.Array(
      Type.Object({
        version: Type.Integer(),
        recorded_at: Type.String(),
        change: Type.String({ description: '`baseline` (present when the feed began), `created`, `amended`, `removed`' }),
        event_id: Nullable(Type.String()),
        changes: Nullable(Type.Array(FieldChange)),
      }),
    ),
  },
  { $id: 'ProgramHistory' },
);
