import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { WIDGET_GRID } from "../../../lib/contracts/widgets.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { WIDGET_TYPES, type WidgetType } from "../../../lib/vocabulary/agents.ts";

export const WidgetTypeEnum = graphqlEnum(WIDGET_TYPES, "WidgetType", "What a dashboard widget shows (spec 2.10); its settings narrow it.");

@ObjectType({ description: `Where a widget sits on the dashboard's ${WIDGET_GRID.columns}-column grid.` })
export class WidgetPosition {
  @Field(() => Int, { description: `column, 0 to ${WIDGET_GRID.columns - 1}` })
  x!: number;

  @Field(() => Int, { description: `row, 0 to ${WIDGET_GRID.max_row}` })
  y!: number;

  @Field(() => Int, { description: `width in columns, 1 to ${WIDGET_GRID.columns}` })
  w!: number;

  @Field(() => Int, { description: `height in rows, 1 to ${WIDGET_GRID.max_height}` })
  h!: number;
}

@InputType()
export class WidgetPositionInput {
  @Field(() => Int)
  x!: number;

  @Field(() => Int)
  y!: number;

  @Field(() => Int)
  w!: number;

  @Field(() => Int)
  h!: number;
}

@ObjectType({ description: "A dashboard widget (spec 2.10 types: balance, transactions, chat, budget)." })
export class Widget {
  @Field(() => ID, { description: "wdg_<id>" })
  id!: string;

  @Field(() => WidgetTypeEnum)
  type!: WidgetType;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => WidgetPosition)
  position!: WidgetPosition;

  @Field(() => JSONObjectScalar)
  settings!: Record<string, unknown>;

  @Field(() => String, { description: "The REST request whose answer is this widget's data (GET /v0/widgets/{widget_id}/data makes it)." })
  data_request!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType({ description: "A widget to add: its type, where it sits, and its settings." })
export class CreateWidgetInput {
  @Field(() => WidgetTypeEnum)
  type!: WidgetType;

  @Field(() => WidgetPositionInput)
  position!: WidgetPositionInput;

  @Field(() => JSONObjectScalar, { nullable: true })
  settings?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}

@InputType({ description: "The fields to change; absent or null: unchanged. The type stays." })
export class UpdateWidgetInput {
  @Field(() => WidgetPositionInput, { nullable: true })
  position?: WidgetPositionInput | null;

  @Field(() => JSONObjectScalar, { nullable: true })
  settings?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}
