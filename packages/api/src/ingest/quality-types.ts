// What a quality report section is (quality.ts runs them; a section module imports only this).

/** What a section may read: the catalogue's SQL (node:sqlite or the catalogue's read-only handle). */
export interface QualityDb {
  all<T>(sql: string, ...params: (string | number | null)[]): T[];
}

/** One record a change touched: what it was and what it became, in a line each. */
export interface QualityExample {
  unified_id: string;
  before?: string | null;
  after?: string | null;
}

export interface SectionResult {
  /** Key -> number of records; keys are stable names a test can hold. */
  counts: Record<string, number>;
  /** Change key -> every record it touched (the report samples them). */
  changes?: Record<string, QualityExample[]>;
}

export interface QualitySection {
  /** Stable id: the key of the section in the report and its JSON. */
  id: string;
  title: string;
  measure(db: QualityDb): SectionResult;
}
