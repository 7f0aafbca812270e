// "npm start builds the catalogue when missing": used by the server and tests.
import { catalogPath, ingest, type CatalogPlan, type IngestOptions } from './ingest.ts';
import { catalogIsCurrent } from '../catalog/db.ts';
import { catalogFingerprint } from './fingerprint.ts';
import { activeOverlayDirs } from './overlays.ts';

export async function ensureCatalog(
  plan: CatalogPlan,
  dataDir: string,
  datasetDir: string,
  progress?: IngestOptions['progress'],
): Promise<{ path: string; built: boolean }> {
  const file = catalogPath(dataDir);
  const overlayDirs = activeOverlayDirs(dataDir);
  if (catalogIsCurrent(file, catalogFingerprint(datasetDir, plan.sourceFiles, overlayDirs))) return { path: file, built: false };
  const report = await ingest({ plan, dataDir, datasetDir, progress, overlayDirs });
  return { path: report.catalogPath, built: true };
}
