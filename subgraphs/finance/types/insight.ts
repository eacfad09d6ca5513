import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { INSIGHT_SEVERITIES, INSIGHT_STATUS_FILTERS, INSIGHT_STATUSES, INSIGHT_TYPES, type InsightStatusFilter, type InsightType } from "../../../lib/vocabulary/insights.ts";
import { Pagination } from "./transaction-page.ts";

export const InsightTypeEnum = graphqlEnum(INSIGHT_TYPES, "InsightType", "What the insight found (spec 2.10).");
export const InsightStatusEnum = graphqlEnum(INSIGHT_STATUSES, "InsightStatus", "active while the finding stands; resolved once it no longer does; dismissed by the user.");
export const InsightStatusFilterEnum = graphqlEnum(INSIGHT_STATUS_FILTERS, "InsightStatusFilter", "An insight status to list, or all.");
export const InsightSeverityEnum = graphqlEnum(INSIGHT_SEVERITIES, "InsightSeverity", "How much the insight asks for attention.");

@Directive(AGENT_TAG)
@ObjectType({ description: "A finding computed from the user's ledger (spec 2.10 insight types), with the figures it was computed from." })
export class Insight {
  @Field(() => ID, { description: "ins_<id>" })
  id!: string;

  @Field(() => InsightTypeEnum)
  type!: string;

  @Field(() => InsightSeverityEnum)
  severity!: string;

  @Field(() => InsightStatusEnum)
  status!: string;

  @Field(() => String, { description: "One line, for a list." })
  title!: string;

  @Field(() => String, { description: "Plain language with the figures." })
  description!: string;

  @Field(() => JSONObjectScalar, { description: "The figures the finding was computed from: money as decimal strings with their currency, instants as epoch ms under *_at and period_* names, the transaction ids it rests on." })
  data!: Record<string, unknown>;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date, { description: "When its figures or status last changed." })
  updated_at!: Date;

  @Field(() => Date, { nullable: true })
  resolved_at!: Date | null;

  @Field(() => Date, { nullable: true })
  dismissed_at!: Date | null;
}

@InputType({ description: "Which insights." })
export class InsightFilter {
  @Field(() => InsightTypeEnum, { nullable: true, description: "An insight type (spec 2.10)." })
  type?: InsightType | null;

  @Field(() => InsightStatusFilterEnum, { nullable: true, description: "active (default), resolved, dismissed or all." })
  status?: InsightStatusFilter | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One page of the user's insights, newest first." })
export class InsightPage {
  @Field(() => [Insight])
  items!: Insight[];

  @Field(() => Pagination)
  pagination!: Pagination;
}
