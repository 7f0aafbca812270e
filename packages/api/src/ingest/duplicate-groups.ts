// One programme, one row: which records stand for the same programme, and
// which of them is the best record to show. Computed at ingest over the
// whole programmes table (pure over its inputs; written back by the
// programs loader's finalize).
//
// Two records are one programme when
// - the dataset's duplicate review put them in one group with verdict
//   `merge`; or they share a group of another verdict (`keep`, `exclude`:
//   both records stay, but they may still be one programme) and the same
//   prefecture — 遊休農地再生事業補助金 of 福岡県 and of 鹿児島県 stay two
//   programmes, the town pages of one prefecture on one national programme
//   are one;
// - or their cleaned names are identical after normalisation
//   (search-text.ts#compactKey) and so is their place;
// - or a rule of canonical.ts links them (rounds, area splits, renamed
//   successors, local expense-type splits), passed in as `links`.

export interface DuplicateMember {
  pid: number;
  unifiedId: string;
  nameKey: string;
  prefecture: string | null;
  municipality: string | null;
  excluded: boolean;
  tierOrder: number;
  coverage: number;
  recordClass: string;
  trustLevel: string;
  hasOfficialUrl: boolean;
  /** The record names its predecessor (X（旧Y）): the programme's current name, preferred. */
  successor?: boolean;
  /** The fiscal year the record names: among otherwise equal records, the newest round is preferred. */
  fiscalYear?: number | null;
  /** A national programme's own record (no prefecture, authority level national): its programme's record before a place's page of it. */
  national?: boolean;
}

/** Two records of one programme by a rule of canonical.ts, with the rule's name. */
export interface RuleLink {
  a: number;
  b: number;
  rule: string;
}

export interface DatasetGroup {
  unifiedIds: string[];
  verdict: string | null;
  winnerUid: string | null;
}

export interface GroupAssignment {
  /** pid of the group's best record (itself for a record alone). */
  group: number;
  /** 0 for the best record, then 1, 2, … in order of preference. */
  rank: number;
  /** Why the group's records are one programme (dataset_group, same_name, and canonical.ts's rules), sorted; empty for a record alone. */
  rules: string[];
}

const TRUST_ORDER: Record<string, number> = { verified: 0, sourced: 1, listed: 2, unverified: 3 };

export function assignDuplicateGroups(members: DuplicateMember[], groups: DatasetGroup[], links: readonly RuleLink[] = []): Map<number, GroupAssignment> {
  const byUid = new Map(members.map((m) => [m.unifiedId, m]));
  const parent = new Map<number, number>(members.map((m) => [m.pid, m.pid]));
  const find = (pid: number): number => {
    let root = pid;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(pid, root);
    return root;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  };
  const place = (m: DuplicateMember): string => `${m.prefecture ?? ''}\u0000${m.municipality ?? ''}`;
  // Every union with its rule, to name each group's rules once the groups are known.
  const edges: RuleLink[] = [];

  const winners = new Set<string>();
  for (const g of groups) {
    const present = g.unifiedIds.map((id) => byUid.get(id)).filter((m): m is DuplicateMember => m !== undefined);
    if (g.winnerUid) winners.add(g.winnerUid);
    for (let i = 1; i < present.length; i++) {
      for (let j = 0; j < i; j++) {
        if (g.verdict === 'merge' || present[i].prefecture === present[j].prefecture) {
          union(present[i].pid, present[j].pid);
          edges.push({ a: present[i].pid, b: present[j].pid, rule: 'dataset_group' });
        }
      }
    }
  }
  const byName = new Map<string, number>();
  for (const m of members) {
    if (m.nameKey === '') continue;
    const key = `${m.nameKey}\u0000${place(m)}`;
    const first = byName.get(key);
    if (first === undefined) byName.set(key, m.pid);
    else {
      union(first, m.pid);
      edges.push({ a: first, b: m.pid, rule: 'same_name' });
    }
  }
  for (const link of links) {
    if (!parent.has(link.a) || !parent.has(link.b)) continue;
    union(link.a, link.b);
    edges.push(link);
  }
  const rulesOf = new Map<number, Set<string>>();
  for (const e of edges) {
    const root = find(e.a);
    const set = rulesOf.get(root);
    if (set) set.add(e.rule);
    else rulesOf.set(root, new Set([e.rule]));
  }

  const clusters = new Map<number, DuplicateMember[]>();
  for (const m of members) {
    const root = find(m.pid);
    const list = clusters.get(root);
    if (list) list.push(m);
    else clusters.set(root, [m]);
  }
  const better = (a: DuplicateMember, b: DuplicateMember): number =>
    Number(a.excluded) - Number(b.excluded) ||
    Number(winners.has(b.unifiedId)) - Number(winners.has(a.unifiedId)) ||
    Number(a.recordClass !== 'programme') - Number(b.recordClass !== 'programme') ||
    Number(b.national === true) - Number(a.national === true) ||
    Number(b.successor === true) - Number(a.successor === true) ||
    a.tierOrder - b.tierOrder ||
    b.coverage - a.coverage ||
    (b.fiscalYear ?? 0) - (a.fiscalYear ?? 0) ||
    (TRUST_ORDER[a.trustLevel] ?? 9) - (TRUST_ORDER[b.trustLevel] ?? 9) ||
    Number(b.hasOfficialUrl) - Number(a.hasOfficialUrl) ||
    a.pid - b.pid;
  const out = new Map<number, GroupAssignment>();
  for (const [root, list] of clusters) {
    list.sort(better);
    const rules = list.length > 1 ? [...(rulesOf.get(root) ?? [])].sort() : [];
    list.forEach((m, rank) => out.set(m.pid, { group: list[0].pid, rank, rules }));
  }
  return out;
}
