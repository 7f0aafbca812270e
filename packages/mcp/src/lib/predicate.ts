// Three-valued evaluation of the tax rulesets' eligibility predicates
// ({op: all|any|not|eq|ne|gte|gt|lte|lt|in, field, value, of}) against a
// business profile. A field the profile does not give makes a leaf `unknown`;
// `all`/`any` combine as in Kleene logic. Unknown operators are `unknown`.
// The upstream predicates name amounts `…_jpy…`; the documented profile field
// (the tool schema, REST) is `…_yen…`: a predicate field is read from its
// documented name first (capital_jpy from capital_yen), and reported by it.
export type Verdict = 'applies' | 'does_not_apply' | 'unknown';
type Tri = true | false | null;

export interface Evaluation {
  verdict: Verdict;
  /** One line per leaf: what was compared and how it came out. */
  reasons: string[];
  /** Profile fields the predicate needs and the profile lacks. */
  missing_fields: string[];
  /** The conditions the profile's facts meet (one line per leaf that came out yes). */
  met: string[];
}

/** The documented profile name of a predicate field: the tools name yen amounts `_yen`, the upstream predicates `_jpy`. */
export function documentedField(field: string): string {
  return field.replace(/(^|_)jpy(_|$)/, '$1yen$2');
}

export function evaluatePredicate(predicate: unknown, profile: Record<string, unknown>): Evaluation {
  const reasons: string[] = [];
  const missing = new Set<string>();
  const met: string[] = [];
  const walk = (node: unknown): Tri => {
    if (!node || typeof node !== 'object') return null;
    const n = node as { op?: unknown; of?: unknown; field?: unknown; value?: unknown; values?: unknown };
    const op = typeof n.op === 'string' ? n.op : '';
    if (op === 'all' || op === 'any') {
      const parts = (Array.isArray(n.of) ? n.of : []).map(walk);
      if (op === 'all') return parts.includes(false) ? false : parts.includes(null) ? null : true;
      return parts.includes(true) ? true : parts.includes(null) ? null : false;
    }
    if (op === 'not') {
      const inner = walk(Array.isArray(n.of) ? n.of[0] : n.of);
      return inner === null ? null : !inner;
    }
    if (typeof n.field !== 'string') return null;
    const field = documentedField(n.field);
    const given = (name: string) => name in profile && profile[name] !== null && profile[name] !== undefined;
    const source = given(field) ? field : given(n.field) ? n.field : null;
    if (source === null) {
      missing.add(field);
      reasons.push(`${field}: not given (needs ${op} ${JSON.stringify(n.value ?? n.values)})`);
      return null;
    }
    const actual = profile[source];
    let result: Tri;
    switch (op) {
      case 'eq':
        result = actual === n.value;
        break;
      case 'ne':
        result = actual !== n.value;
        break;
      case 'gte':
        result = compare(actual, n.value, (a, b) => a >= b);
        break;
      case 'gt':
        result = compare(actual, n.value, (a, b) => a > b);
        break;
      case 'lte':
        result = compare(actual, n.value, (a, b) => a <= b);
        break;
      case 'lt':
        result = compare(actual, n.value, (a, b) => a < b);
        break;
      case 'in': {
        // The upstream predicates give the set as `values` or `value`.
        const set = Array.isArray(n.values) ? n.values : n.value;
        result = Array.isArray(set) ? set.includes(actual) : null;
        break;
      }
      default:
        result = null;
    }
    const line = `${field}=${JSON.stringify(actual)} ${op} ${JSON.stringify(n.value ?? n.values)}`;
    reasons.push(`${line}: ${result === null ? 'not comparable' : result ? 'yes' : 'no'}`);
    if (result === true) met.push(line);
    return result;
  };
  const out = walk(predicate);
  return { verdict: out === true ? 'applies' : out === false ? 'does_not_apply' : 'unknown', reasons, missing_fields: [...missing], met };
}

function compare(a: unknown, b: unknown, cmp: (x: number, y: number) => boolean): Tri {
  const x = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const y = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  return Number.isFinite(x) && Number.isFinite(y) ? cmp(x, y) : null;
}

/** The profile fields (documented names) a predicate reads. */
export function predicateFields(predicate: unknown, out = new Set<string>()): Set<string> {
  if (!predicate || typeof predicate !== 'object') return out;
  const n = predicate as { of?: unknown; field?: unknown };
  if (typeof n.field === 'string') out.add(documentedField(n.field));
  for (const part of Array.isArray(n.of) ? n.of : n.of ? [n.of] : []) predicateFields(part, out);
  return out;
}
