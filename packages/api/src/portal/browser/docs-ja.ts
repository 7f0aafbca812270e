// The API reference in Japanese: the document's introduction and each
// operation group's description (schemas/tags.ts holds them in English, in
// the published document). A test keeps the two lists of groups equal
// (test/portal/pages.test.ts). Operations and parameters keep the
// document's English: they are the API's own names and terms.

export const TITLE_JA = '日本の公的支援制度データAPI';

export const INFO_JA =
  '日本の公的支援制度 (補助金・助成金・融資・認定・税制・行政処分・法令・入札) のカタログを読む JSON API です。制度どうしの併給チェックもできます。' +
  'エラーは常に `{"detail": string}` です。キーなしの呼び出しはアドレスごとに1日の回数制限があります。キーは `X-API-Key` または `Authorization: Bearer` で送ります。';

export const TAGS_JA: Readonly<Record<string, string>> = {
  programs: '公的支援制度 (補助金・助成金・融資・認定など): キーワードと条件で検索、ID で1件、最大50件をまとめて取得、制度の変更履歴。',
  exclusions: '制度どうしの既知のルール (併給不可・前提条件・併用時の減額) と、選んだ制度の組み合わせのチェック。',
  meta: 'サービス自体: データの統計、死活・準備状況、キーと残り回数 (ping)、データのライセンス表示、フィードバック。',
  account: 'あなたのキー: アカウント、今月の利用量、利用額の上限、請求書。開発者ポータルへのログイン (セッション Cookie)、端末からのサインイン (RFC 8628)。',
  laws: 'e-Gov の法令: 検索、1件の法令、条文の一覧、条番号で1条。',
  tax_rulesets: '税制 (所得控除・税額控除・特別償却など) の要件と適用期間。',
  loans: '公的融資と共済 (日本政策金融公庫など): 担保・保証人・金利の条件つき。',
  enforcement: '行政処分 (補助金の返還命令、交付対象からの除外期間など): 企業・処分庁・日付で検索。',
  case_studies: '制度を活用した中小企業の事例: 業種・都道府県・企業で検索。',
  certifications: '認定制度 (経営計画の認定・指定など)。ほかの制度の要件になることが多いもの。',
  bids: '公共調達の入札 (同梱データにはありません。データがあれば提供します)。',
  am: '「am」はエンティティグラフです (上流データセットの旧名 AutonoMath から)。制度・法令・税制・融資・行政処分を出典つきの事実として結びつけています。ある日付時点の状態、ある日に募集中の制度、法令に結びつくもの、関連制度、質問の意図の判定と出典つきの回答、申請者データの検証。',
  changes: '変更フィード: データの各版で新規・変更・削除された記録を、カーソルで順に読めます。',
  alerts: '保存した検索・Webhook・メールのまとめ: 新しい版で該当が増えたり変わったりしたら知らせます。',
  calendar: '募集締切のカレンダー (iCalendar で購読、または JSON)。',
  billing: '有料キー: 支払い手続き、完了した手続きのキーの受け取り、顧客ポータル。決済事業者からの Webhook。',
  advisors: '認定された専門家 (認定支援機関・税理士など): 一覧、登録申請、紹介と報酬。',
};
