// Advisors (professional referral partners): AdvisorOut exactly (additional
// properties forbidden: the response serialiser drops anything else, so
// internal columns such as the payment account id can never leak), signup,
// referral tracking, conversion reports and the advisor's dashboard.
import { Type } from 'typebox';
import { Nullable, Limit, Offset, StoredName } from './common.ts';
import { PREFECTURE_NAMES } from '@jp-support/vocab';

export const FIRM_TYPES = ['税理士法人', '認定支援機関', '社会保険労務士', '中小企業診断士', '行政書士', '弁護士', '銀行', '商工会議所', 'その他'] as const;

export const PREFECTURES = PREFECTURE_NAMES;

const FirmType = Type.Union(
  FIRM_TYPES.map((f) => Type.Literal(f)),
  { description: FIRM_TYPES.join(', ') },
);
const Prefecture = Type.Union(
  PREFECTURES.map((p) => Type.Literal(p)),
  { description: 'one of the 47 prefectures' },
);
const CommissionModel = Type.Union([Type.Literal('flat'), Type.Literal('percent')]);

export const AdvisorOut = Type.Object(
  {
    id: Type.Integer(),
    firm_name: Type.String(),
    firm_type: Type.String(),
    specialties: Type.Array(Type.String()),
    prefecture: Type.String(),
    address: Type.Optional(Nullable(Type.String())),
    city: Type.Optional(Nullable(Type.String())),
    contact_email: Type.Optional(Nullable(Type.String())),
    contact_phone: Type.Optional(Nullable(Type.String())),
    contact_url: Type.Optional(Nullable(Type.String())),
    firm_name_kana: Type.Optional(Nullable(Type.String())),
    intro_blurb: Type.Optional(Nullable(Type.String())),
    verified_at: Type.Optional(Nullable(Type.String())),
    industries: Type.Optional(Nullable(Type.Array(Type.String()))),
    commission_model: Type.Optional(Type.String({ default: 'flat' })),
    commission_rate_pct: Type.Optional(Type.Integer({ default: 5 })),
    commission_yen_per_intro: Type.Optional(Nullable(Type.Integer({ default: 3000 }))),
    success_count: Type.Optional(Type.Integer({ default: 0 })),
  },
  { $id: 'AdvisorOut', additionalProperties: false },
);

export const AdvisorListQuery = Type.Object(
  {
    prefecture: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    specialty: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    firm_type: Type.Optional(FirmType),
    limit: Type.Optional(Limit(100, 20)),
    offset: Type.Optional(Offset),
  },
  { additionalProperties: false },
);

export const AdvisorListResponse = Type.Object(
  {
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    results: Type.Array(AdvisorOut),
  },
  { $id: 'AdvisorListResponse' },
);

/** One line of text (names, places, specialties); `intro_blurb` alone may hold line breaks. */
const Text = (max: number) => StoredName({ minLength: 1, maxLength: max });
const Paragraphs = (max: number) => Type.String({ minLength: 1, maxLength: max });
export const AdvisorSignup = Type.Object(
  {
    firm_name: Text(200),
    firm_type: FirmType,
    specialties: Type.Array(Text(100), { minItems: 1, maxItems: 20 }),
    prefecture: Prefecture,
    contact_email: Type.String({
      maxLength: 254,
      pattern: '^[^\\s@<>()\\[\\]\\\\,;:"]+@[^\\s@<>()\\[\\]\\\\,;:"]+\\.[A-Za-z]{2,}$',
      description: 'e-mail address',
    }),
    address: Type.Optional(Text(300)),
    city: Type.Optional(Text(100)),
    contact_phone: Type.Optional(Type.String({ pattern: '^[0-9+()\\- ]{6,20}$' })),
    contact_url: Type.Optional(Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+$' })),
    firm_name_kana: Type.Optional(Text(200)),
    intro_blurb: Type.Optional(Paragraphs(2000)),
    industries: Type.Optional(Type.Array(Text(100), { maxItems: 30 })),
    commission_model: Type.Optional(CommissionModel),
    commission_rate_pct: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    commission_yen_per_intro: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
  },
  { $id: 'AdvisorSignupRequest', additionalProperties: false },
);

export const AdvisorSignupResponse = Type.Object({
  id: Type.Integer(),
  status: Type.Literal('pending'),
  detail: Type.String(),
});

export const TrackRequest = Type.Object(
  {
    advisor_id: Type.Integer({ minimum: 1 }),
    source_program_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const TrackResponse = Type.Object({
  referral_id: Type.Integer(),
  advisor_id: Type.Integer(),
  token: Type.String({ description: 'shown once; stored only as a SHA-256 hash' }),
  token_prefix: Type.String(),
});

export const ConversionRequest = Type.Object(
  {
    token: Type.String({ minLength: 10, maxLength: 200 }),
    // Bounded: ¥1,000,000,000 covers the largest programmes; a commission is a percentage of it at most.
    conversion_value_yen: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  },
  { additionalProperties: false },
);

export const ConversionResponse = Type.Object({
  referral_id: Type.Integer(),
  advisor_id: Type.Integer(),
  conversion_value_yen: Type.Integer(),
  commission_yen: Type.Integer(),
  converted_at: Type.String(),
});

const Referral = Type.Object(
  {
    id: Type.Integer(),
    token_prefix: Type.String(),
    clicked_at: Type.Optional(Nullable(Type.String())),
    converted_at: Type.Optional(Nullable(Type.String())),
    commission_paid_at: Type.Optional(Nullable(Type.String())),
    source_program_id: Type.Optional(Nullable(Type.String())),
    commission_yen: Type.Optional(Nullable(Type.Integer())),
    conversion_value_yen: Type.Optional(Nullable(Type.Integer())),
  },
  { additionalProperties: false },
);

export const AdvisorDashboardResponse = Type.Object(
  {
    advisor: AdvisorOut,
    summary: Type.Object(
      {
        clicks: Type.Integer({ default: 0 }),
        conversions: Type.Integer({ default: 0 }),
        paid_yen: Type.Integer({ default: 0 }),
        unpaid_yen: Type.Integer({ default: 0 }),
      },
      { additionalProperties: false },
    ),
    referrals: Type.Optional(Type.Array(Referral)),
  },
  { $id: 'AdvisorDashboardResponse' },
);
