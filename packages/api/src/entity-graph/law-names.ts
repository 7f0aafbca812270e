// The names a statute is known by: well-known short names (略称) and the
// `…法` / `…に関する法律` variants. Pure; unit-tested in
// test/entity-graph/units.test.ts.

/** Well-known short names of statutes (略称) -> formal title. */
export const LAW_SHORT_NAMES: Record<string, string> = {
  補助金適正化法: '補助金等に係る予算の執行の適正化に関する法律',
  補助金適化法: '補助金等に係る予算の執行の適正化に関する法律',
  租特法: '租税特別措置法',
  経営承継円滑化法: '中小企業における経営の承継の円滑化に関する法律',
  円滑化法: '中小企業における経営の承継の円滑化に関する法律',
  事業承継円滑化法: '中小企業における経営の承継の円滑化に関する法律',
  措置法: '租税特別措置法',
  経営強化法: '中小企業等経営強化法',
  中小企業経営強化法: '中小企業等経営強化法',
  労基法: '労働基準法',
  建基法: '建築基準法',
  独禁法: '私的独占の禁止及び公正取引の確保に関する法律',
  独占禁止法: '私的独占の禁止及び公正取引の確保に関する法律',
  下請法: '下請代金支払遅延等防止法',
  景表法: '不当景品類及び不当表示防止法',
  景品表示法: '不当景品類及び不当表示防止法',
  個人情報保護法: '個人情報の保護に関する法律',
  個情法: '個人情報の保護に関する法律',
  入管法: '出入国管理及び難民認定法',
  廃掃法: '廃棄物の処理及び清掃に関する法律',
  廃棄物処理法: '廃棄物の処理及び清掃に関する法律',
  金商法: '金融商品取引法',
  派遣法: '労働者派遣事業の適正な運営の確保及び派遣労働者の保護等に関する法律',
  労働者派遣法: '労働者派遣事業の適正な運営の確保及び派遣労働者の保護等に関する法律',
  育介法: '育児休業、介護休業等育児又は家族介護を行う労働者の福祉に関する法律',
  育児介護休業法: '育児休業、介護休業等育児又は家族介護を行う労働者の福祉に関する法律',
  農地中間管理事業法: '農地中間管理事業の推進に関する法律',
  電帳法: '電子計算機を使用して作成する国税関係帳簿書類の保存方法等の特例に関する法律',
  電子帳簿保存法: '電子計算機を使用して作成する国税関係帳簿書類の保存方法等の特例に関する法律',
  雇保法: '雇用保険法',
  安衛法: '労働安全衛生法',
  労働安全法: '労働安全衛生法',
  最賃法: '最低賃金法',
  宅建業法: '宅地建物取引業法',
  風営法: '風俗営業等の規制及び業務の適正化等に関する法律',
};

/**
 * The names a statute may be looked up by, in the order they are tried: the
 * input as given, its normalised form, the formal title of a known short
 * name, and `…に関する法律` <-> `…法` variants.
 */
export function lawNameVariants(input: string): string[] {
  const out: string[] = [];
  const add = (s: string | undefined | null): void => {
    const v = s?.normalize('NFKC').replace(/\s+/g, '').trim();
    if (v && !out.includes(v)) out.push(v);
  };
  add(input);
  const base = input
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[（(][^）)]*[）)]$/, '');
  add(base);
  add(LAW_SHORT_NAMES[base]);
  const long = /^(.+)に関する法律$/.exec(base);
  if (long) add(`${long[1]}法`);
  if (!/(法|令|規則|省令|法律)$/.test(base)) add(`${base}法`);
  return out;
}
