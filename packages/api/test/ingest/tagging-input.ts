// A tagging input with every field empty but those a test gives (tagging.test.ts, tag-corrections.test.ts).
import type { TaggingInput } from '../../src/ingest/tagging.ts';

export const taggingInput = (over: Partial<TaggingInput>): TaggingInput => ({
  name: '',
  description: null,
  programKind: null,
  authorityName: null,
  authorityLevel: null,
  url: null,
  fundingPurpose: null,
  targetTypes: null,
  jsicMajors: null,
  ...over,
});
