// /v1/exclusions: the rule catalogue and the combination check.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Attribution, ATTRIBUTION, Nullable } from '../../../schemas/common.ts';
import { checkExclusions, dedupe, exclusionsToCheck, idsCoveredByRules } from '../../../catalog/queries/exclusions.ts';
import { HttpError } from '../../../plugins/errors.ts';
import { DATA_READ, PAGE_DATA_READ, operation } from '../../operation.ts';

export const ExclusionRule = Type.Object(
  {
    rule_id: Type.String(),
    kind: Type.String({ description: '`mutex`, `prerequisite`, `conditional_reduction`, others possible' }),
    severity: Nullable(Type.String()),
    program_a: Nullable(Type.String()),
    program_b: Nullable(Type.String()),
    program_b_group: Type.Array(Nullable(Type.String())),
    description: Nullable(Type.String()),
    source_notes: Nullable(Type.String()),
    source_urls: Type.Array(Type.String()),
    extra: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'ExclusionRule' },
);

const CheckRequest = Type.Object(
  {
    program_ids: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 200,
      description: 'At least 1 id (unified_id, upstream slug or program name); duplicates removed.',
    }),
  },
  { $id: 'ExclusionCheckRequest', additionalProperties: false },
);

const Hit = Type.Object({
  rule_id: Type.String(),
  kind: Type.String(),
  severity: Nullable(Type.String()),
  programs_involved: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  source_urls: Type.Array(Type.String()),
});

const ToCheck = Type.Object({
  rule_id: Type.String(),
  kind: Type.String(),
  severity: Nullable(Type.String()),
  programs_involved: Type.Array(Type.String()),
  to_check: Type.Array(Type.String(), { description: 'What the check cannot decide: a class of programmes or a condition on the applicant' }),
  description: Nullable(Type.String()),
  source_urls: Type.Array(Type.String()),
});

const CheckResponse = Type.Object(
  {
    program_ids: Type.Array(Type.String()),
    hits: Type.Array(Hit),
    checked_rules: Type.Integer(),
    to_check: Type.Optional(
      Type.Array(ToCheck, {
        description: 'Rules the selection may break that the check cannot decide (a class of programmes or a condition on the applicant); never conflicts',
      }),
    ),
    covered_program_ids: Type.Optional(
      Type.Array(Type.String(), {
        description: 'The selected ids some rule names: no hit for the others means no rule is held about them, not that they combine',
      }),
    ),
    attribution: Attribution,
  },
  { $id: 'ExclusionCheckResponse' },
);

const exclusionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/rules',
    operation(DATA_READ, 'exclusions', 'listExclusionRules', 'All exclusion rules', { response: { 200: Type.Array(ExclusionRule) } }, [401, 429]),
    async () => app.catalog.rules.map((r) => r.rule),
  );

  app.post(
    '/check',
    operation(
      PAGE_DATA_READ,
      'exclusions',
      'checkExclusions',
      'Which exclusion rules a set of programs triggers',
      { body: CheckRequest, response: { 200: CheckResponse } },
      [400, 401, 429],
    ),
    async (request) => {
      const ids = dedupe(request.body.program_ids);
      if (ids.length === 0) throw new HttpError(400, 'program_ids must contain at least 1 id');
      const rules = app.catalog.rules;
      return {
        program_ids: ids,
        hits: checkExclusions(rules, ids),
        checked_rules: rules.length,
        to_check: exclusionsToCheck(rules, ids),
        covered_program_ids: idsCoveredByRules(rules, ids),
        attribution: ATTRIBUTION,
      };
    },
  );
};

export default exclusionsRoutes;
