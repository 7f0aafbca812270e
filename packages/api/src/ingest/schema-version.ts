// Bump when the catalogue's tables change shape: a server finding an older
// catalogue rebuilds it at start instead of failing on a missing column.
export const CATALOG_SCHEMA_VERSION = 7;
