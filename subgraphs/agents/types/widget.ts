import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

@ObjectType({ description: "Where a widget sits on the dashboard's 12-column grid." })
export class WidgetPosition {
  @Field(() => Int, { description: "column, 0 to 11" })
  x!: number;

  @Field(() => Int, { description: "row, from 0" })
  y!: number;

  @Field(() => Int, { description: "width in columns, 1 to 12" })
  w!: number;

  @Field(() => Int, { description: "height in rows, 1 to 20" })
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

  @Field(() => String)
  type!: string;

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
