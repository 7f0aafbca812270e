// The one list of paths that count against the daily limits (anonymous
// per-address limit and free-key quota) and, for paid keys, are billed.
// Contract (Limits) plus DESIGN "Anonymous access to the other read paths":
// every read path of the data is metered; account, billing, device
// authorisation, documentation and health paths never are. /mcp is not
// metered itself: its tool calls reach these REST paths in-process and are
// counted there.

/** Route patterns (Fastify `routeOptions.url`) by prefix; `methods` null = any method. */
const METERED: readonly { prefix: string; exact?: boolean; methods: readonly string[] | null }[] = [
  { prefix: '/meta', exact: true, methods: ['GET', 'HEAD'] },
  { prefix: '/v1/meta', exact: true, methods: ['GET', 'HEAD'] },
  { prefix: '/v1/ping', exact: true, methods: ['GET', 'HEAD'] },
  { prefix: '/v1/programs', methods: null },
  { prefix: '/v1/exclusions', methods: null },
  { prefix: '/v1/feedback', exact: true, methods: ['POST'] },
  { prefix: '/v1/loans', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/tax_rulesets', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/enforcement', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/laws', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/case_studies', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/certifications', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/bids', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/advisors', methods: ['GET', 'HEAD'] },
  { prefix: '/v1/am', methods: null },
];

/** Metered but never billed: counted as usage only. */
const NEVER_BILLED = new Set(['/v1/ping', '/v1/feedback']);

function matches(routePath: string, prefix: string, exact: boolean): boolean {
  if (routePath === prefix) return true;
  return !exact && routePath.startsWith(`${prefix}/`);
}

/** Whether a request to this route pattern counts against the daily limits. Unknown routes (404) are not metered. */
export function isMetered(method: string, routePath: string | undefined): boolean {
  if (!routePath) return false;
  const path = routePath.length > 1 ? routePath.replace(/\/+$/, '') : routePath;
  const m = method.toUpperCase();
  return METERED.some((r) => matches(path, r.prefix, r.exact ?? false) && (r.methods === null || r.methods.includes(m)));
}

/** Whether a successful request to this route by a paid key is charged. */
export function isBillable(method: string, routePath: string | undefined): boolean {
  return isMetered(method, routePath) && !NEVER_BILLED.has(routePath!.replace(/\/+$/, ''));
}
