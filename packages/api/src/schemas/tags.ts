// The operation groups of the published OpenAPI document, in the order the
// API reference (/docs) lists them, each with what it is for. Every tag an
// operation uses is declared here (test/routes/openapi-tags.test.ts); the
// portal's Japanese reference has the same list in Japanese
// (portal/browser/docs-ja.ts).
export const OPENAPI_TAGS: readonly { name: string; description: string }[] = [
  {
    name: 'programs',
    description:
      'Public support programmes (subsidies, grants, loans, certifications …): search by text and filters, one programme by id, up to 50 at once, a programme’s history.',
  },
  {
    name: 'exclusions',
    description: 'The known rules between programmes (mutually exclusive, prerequisite, reduced when combined) and a check of a selection against them.',
  },
  {
    name: 'meta',
    description: 'The service itself: dataset statistics, health and readiness probes, your key and allowance (ping), the data licence, feedback.',
  },
  {
    name: 'account',
    description: 'Your key: account, usage this month, spend cap, invoices; logging in to the developer portal (session cookie); device sign-in (RFC 8628).',
  },
  { name: 'laws', description: 'Statutes from e-Gov: search, one law, its articles in order, one article by number.' },
  { name: 'tax_rulesets', description: 'Tax measures (deductions, credits, special depreciation) with their conditions and validity.' },
  { name: 'loans', description: 'Public loans and mutual-aid plans (JFC and others) with collateral, guarantor and rate axes.' },
  { name: 'enforcement', description: 'Administrative enforcement records (e.g. subsidy repayment orders, exclusion periods) by company, authority and date.' },
  { name: 'case_studies', description: 'Case studies of SMEs that used programmes, by industry, prefecture and company.' },
  { name: 'certifications', description: 'Certification programmes (management plans, designations) that other programmes often require.' },
  { name: 'bids', description: 'Public procurement bids (none in the bundled dataset; served when supplied).' },
  {
    name: 'am',
    description:
      '“am” is the entity graph (from AutonoMath, the upstream dataset’s former name): programmes, laws, tax measures, loans and enforcement records linked as facts with their provenance. Point-in-time views, programmes open on a date, everything tied to a statute, related programmes, intents of a question and citation-backed answers, applicant validation.',
  },
  { name: 'changes', description: 'The change feed: what each dataset version created, amended or removed, followed with a cursor.' },
  { name: 'alerts', description: 'Saved searches, webhooks and e-mail digests that tell you when a dataset version brings new or amended matches.' },
  { name: 'calendar', description: 'Application deadlines as an iCalendar feed to subscribe to, or as JSON.' },
  { name: 'billing', description: 'Paid keys: checkout, the key of a completed checkout, the customer portal; the payment provider’s webhook.' },
  { name: 'advisors', description: 'Verified advisors (certified support organisations, tax accountants …): listing, sign-up, referrals and commissions.' },
];
