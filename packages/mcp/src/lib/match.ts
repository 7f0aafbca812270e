// The composite tools' programme matching (prescreen_programs,
// smb_starter_pack): POST /v1/programs/match, the service's own engine, so a
// tool ranks programmes exactly as REST does, with the reasons each fits and
// what is still to check.
import type { ToolApi } from './api.ts';
import type { Row } from './define.ts';
import { rowsOf } from './search.ts';

export interface ToolProfile {
  prefecture?: string;
  /** JSIC code (major letter or digits), passed as given: the API refuses one that does not exist. */
  industry?: string;
  employees?: number;
  founded_year?: number;
  sole_proprietor?: boolean;
  planned_investment_man_yen?: number;
  limit: number;
}

/** The matched programmes (default shape plus reasons and unknowns); a planned investment adds a reason where the amount covers a quarter of it. */
export async function matchProfile(api: ToolApi, p: ToolProfile): Promise<Row[]> {
  const body: Record<string, unknown> = { limit: p.limit };
  if (p.prefecture) body.prefecture = p.prefecture;
  if (p.industry?.trim()) body.industry = p.industry.trim();
  if (p.employees !== undefined) body.employees = p.employees;
  if (p.founded_year !== undefined) body.founded_year = p.founded_year;
  // The service reads 個人事業主 in a need as its audience (sole proprietors).
  if (p.sole_proprietor === true) body.need = '個人事業主';
  const rows = rowsOf(await api.programs.match(body));
  const invest = p.planned_investment_man_yen;
  if (invest === undefined) return rows;
  return rows.map((r) => {
    const max = typeof r.amount_max_man_yen === 'number' ? r.amount_max_man_yen : null;
    if (max === null || max < invest * 0.25) return r;
    const reasons = Array.isArray(r.reasons) ? r.reasons : [];
    return { ...r, reasons: [...reasons, { kind: 'amount', detail: `up to ${max} 万円 against a planned ${invest} 万円` }] };
  });
}
