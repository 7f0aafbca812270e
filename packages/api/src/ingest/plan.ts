// What the served catalogue is built from, in order: the record-set loaders
// (ingest/loaders), then the entity graph of /v1/am (ingest/entity-graph),
// which reads the tables they wrote. The one module that knows both, so that
// catalog/ never imports entity-graph/ (entity-graph/ reads the catalogue).
// Callers pass it to ingest() and ensureCatalog().
import type { CatalogPlan } from './ingest.ts';
import { catalogLoaders } from './loaders/index.ts';
import type { RecordSetSpec } from '../catalog/record-sets/spec.ts';
import { ENTITY_GRAPH_BUILD_FILES, entityGraphLoader } from './entity-graph/index.ts';

/** The plan of a catalogue holding these record sets (default: the service's; a test adds one). */
export function catalogPlan(recordSets?: readonly RecordSetSpec[]): CatalogPlan {
  return { loaders: [...catalogLoaders(recordSets), entityGraphLoader], sourceFiles: ENTITY_GRAPH_BUILD_FILES };
}

export const CATALOG_PLAN: CatalogPlan = catalogPlan();
