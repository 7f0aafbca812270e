// Reviewed: what the exclusion rules' references stand for when the dataset
// does not resolve them itself (no existing `*_uid_candidates`, no programme
// of that exact name). Each entry says why. The loader fails the build on a
// reference that neither resolves nor is listed here (decision 0393), so a new
// rule cannot silently never fire.
//
// - `programmes`: the unified ids the reference names (ids absent from the
//   catalogue being built are dropped; none left fails the build);
// - `class`: a kind of programme the catalogue cannot enumerate (any national
//   subsidy, any living-cost benefit): a rule against it is reported "to check";
// - `condition`: a fact about the applicant or a plan (a certification, being
//   placed on a regional plan, being a corporation of 5+ years): reported "to
//   check", never a conflict between programmes.

export type ReferenceReview =
  | { readonly refers_to: 'programmes'; readonly unified_ids: readonly string[]; readonly reason: string }
  | { readonly refers_to: 'class' | 'condition'; readonly label: string; readonly reason: string };

export const EXCLUSION_RULE_REFERENCES: Readonly<Record<string, ReferenceReview>> = {
  'keiei-hatten-sedai': {
    refers_to: 'programmes',
    unified_ids: ['UNI-070a873b17'],
    reason:
      'The national 経営発展支援事業 record of the 世代交代円滑化タイプ (MAFF); local records of the same name are municipal top-ups, not the national type.',
  },
  'keiei-hatten-shoki': {
    refers_to: 'programmes',
    unified_ids: ['UNI-cfb34382d7'],
    reason: 'The national 経営発展支援事業 record of the 初期投資促進タイプ (MAFF), the programme whose cap with 経営開始資金 is 500万円.',
  },
  'kyushoku-shien': {
    refers_to: 'programmes',
    unified_ids: ['UNI-ext-5ebd82aeef'],
    reason: '求職者支援制度 pays living costs through 職業訓練受講給付金, the only record of the scheme in the catalogue.',
  },
  'other-seikatsu-kyufu-kokka': {
    refers_to: 'class',
    label: '生活費を支給する国の他の事業',
    reason: 'Any other national scheme that pays living costs: a class, not one programme.',
  },
  'jissen-kenshu-shien': {
    refers_to: 'class',
    label: '雇用就農者を対象とした実践研修支援事業',
    reason: 'A training support within 雇用就農資金 that the catalogue holds no record of.',
  },
  地域計画目標地図位置付け: {
    refers_to: 'condition',
    label: '地域計画の目標地図に位置付けられていること',
    reason: 'Being placed on the target map of the regional farm plan: a condition on the applicant, not a programme.',
  },
  'みどりの食料システム法 環境負荷低減': {
    refers_to: 'condition',
    label: 'みどりの食料システム法の環境負荷低減事業活動の認定',
    reason: 'A certification under the みどりの食料システム法 held by the applicant, not a programme.',
  },
  national_subsidy_same_asset: {
    refers_to: 'class',
    label: '国の他の補助事業（同一の機械・施設）',
    reason: 'Any other national subsidy for the same machine or facility: a class.',
  },
  national_subsidy: { refers_to: 'class', label: '国の補助金', reason: 'Any national subsidy: a class.' },
  pref_subsidy: { refers_to: 'class', label: '都道府県の補助金', reason: 'Any prefectural subsidy: a class.' },
  municipality_subsidy: { refers_to: 'class', label: '市町村の補助金', reason: 'Any municipal subsidy: a class.' },
  pref_loan_interest_subsidy: {
    refers_to: 'class',
    label: '都道府県の利子補給・利子助成',
    reason: 'Any prefectural interest subsidy on a loan: a class.',
  },
  established_corp_100ha_scale: {
    refers_to: 'condition',
    label: '経営開始から5年以上経過した法人経営体',
    reason: 'The applicant being a corporation 5+ years past its start (the rule bars it from the new-farmer programmes); a condition, not a programme.',
  },
};
