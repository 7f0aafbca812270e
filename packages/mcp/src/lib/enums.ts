// Enumerations several tools share, spelled as the reference surface spells them.
import { z } from 'zod';

export const TIERS = ['S', 'A', 'B', 'C', 'X'] as const;
export const TIER = z.enum(TIERS);
/** Row shape of program answers: minimal (7 keys), default (all fields), full (plus enrichment and lineage). */
export const PROGRAM_SHAPE = z.enum(['minimal', 'default', 'full']);
export const AUTHORITY_LEVEL = z.enum(['national', 'prefecture', 'municipality', 'financial']);
