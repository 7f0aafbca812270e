// Id formats of the record sets, as tool input schemas.
import { z } from 'zod';

export const LAW_ID = z.string().regex(/^LAW-[0-9a-f]{10}$/, 'must look like LAW-0123456789');
export const BID_ID = z.string().regex(/^BID-[0-9a-f]{10}$/, 'must look like BID-0123456789');
export const TAX_ID = z.string().regex(/^TAX-[0-9a-f]{10}$/, 'must look like TAX-0123456789');
export const HAN_ID = z.string().regex(/^HAN-[0-9a-f]{10}$/, 'must look like HAN-0123456789');
