// "npm start builds the catalogue when missing": used by the server and tests.
import { catalogPath, ingest, type IngestOptions } from './ingest.ts';
import { catalogIsCurrent } from './db.ts';
import { catalogFingerprint } from './fingerprint.ts';

export async function ensureCatalog(
  dataDir: string,
  datasetDir: string,
  progress?: IngestOptions['progress'],
): Promise<{ path: string; built: boolean }> {
  const file = catalogPath(dataDir);
  if (catalogIsCurrent(file, catalogFingerprint(datasetDir))) return { path: file, built: false };
  const report = await ingest({ dataDir, datasetDir, progress });
  return { path: report.catalogPath, built: true };
}
