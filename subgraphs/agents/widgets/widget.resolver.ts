import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { newId } from "../../../lib/ids.ts";
import type { WidgetType } from "../../../lib/vocabulary/agents.ts";
import type { AgentsDb, Prisma } from "../db.ts";
import type { AgentsServices } from "../services.ts";
import { AgentsUser } from "../types/user.ts";
import { CreateWidgetInput, UpdateWidgetInput, Widget } from "../types/widget.ts";
import { checkWidgetSettings, widgetDataRequest } from "./widget-settings.ts";

@Resolver(() => Widget)
export class WidgetResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [Widget], { description: "The user's dashboard widgets, top to bottom, left to right." })
  widgets(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listWidgets(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @Query(() => Widget)
  widget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getWidget(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @Mutation(() => Widget, { description: "Adds a widget to the dashboard." })
  create_widget(
    @Arg("input", () => CreateWidgetInput) input: CreateWidgetInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return createWidget(this.services.db, requireUser(ctx.principal, "write").user_id, { type: input.type, title: input.title ?? null, position: { ...input.position }, settings: input.settings ?? null });
  }

  @Mutation(() => Widget, { description: "Moves, renames or re-sets a widget." })
  update_widget(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateWidgetInput) input: UpdateWidgetInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return updateWidget(this.services.db, requireUser(ctx.principal, "write").user_id, id, { position: input.position && { ...input.position }, settings: input.settings ?? null, ...(input.title != null && { title: input.title }) });
  }

  @Mutation(() => Widget, { description: "Removes a widget; answers it as it was." })
  delete_widget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return deleteWidget(this.services.db, requireUser(ctx.principal, "write").user_id, id);
  }

  @FieldResolver(() => String)
  data_request(@Root() widget: WidgetView): string {
    return widgetDataRequest(widget.type, widget.settings);
  }
}

@Resolver(() => AgentsUser)
export class UserWidgetsResolver {
  constructor(private readonly services: AgentsServices) {}

  @FieldResolver(() => [Widget], { description: "The user's dashboard widgets." })
  widgets(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listWidgets(this.services.db, user_id) : Promise.resolve([]);
  }
}

// The use cases, one exported function each, beside the resolvers while they stay plain CRUD (the
// settings' rules are widget-settings.ts's).

export type WidgetRow = NonNullable<Awaited<ReturnType<AgentsDb["widget"]["findUnique"]>>>;

export interface WidgetPosition {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function widgetView(row: WidgetRow) {
  return { id: row.id, type: row.type as WidgetType, title: row.title, position: { x: row.x, y: row.y, w: row.w, h: row.h }, settings: row.settings as Record<string, unknown>, created_at: row.created_at, updated_at: row.updated_at };
}
export type WidgetView = ReturnType<typeof widgetView>;

async function load(db: AgentsDb, userId: string, id: string): Promise<WidgetRow> {
  const row = await db.widget.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("WDG-404-001");
  return row;
}

/** The user's dashboard, top to bottom, left to right. */
export async function listWidgets(db: AgentsDb, userId: string): Promise<WidgetView[]> {
  return (await db.widget.findMany({ where: { user_id: userId }, orderBy: [{ y: "asc" }, { x: "asc" }, { created_at: "asc" }] })).map(widgetView);
}

export async function getWidget(db: AgentsDb, userId: string, id: string): Promise<WidgetView> {
  return widgetView(await load(db, userId, id));
}

export async function createWidget(db: AgentsDb, userId: string, input: { type: WidgetType; title: string | null; position: WidgetPosition; settings: unknown }): Promise<WidgetView> {
  const { type } = input;
  const settings = checkWidgetSettings(type, input.settings);
  const now = new Date();
  const row = await db.widget.create({ data: { id: newId("wdg", now.getTime()), user_id: userId, type, title: input.title, ...input.position, settings: settings as Prisma.InputJsonValue, created_at: now, updated_at: now } });
  return widgetView(row);
}

/** Moves, renames or re-sets a widget (its type stays: add another widget for another type). */
export async function updateWidget(db: AgentsDb, userId: string, id: string, change: { title?: string | null; position?: WidgetPosition | null; settings?: unknown }): Promise<WidgetView> {
  const row = await load(db, userId, id);
  const settings = change.settings == null ? null : checkWidgetSettings(row.type as WidgetType, change.settings);
  const updated = await db.widget.update({
    where: { id: row.id },
    data: { ...(change.title !== undefined && { title: change.title }), ...(change.position && change.position), ...(settings && { settings: settings as Prisma.InputJsonValue }) },
  });
  return widgetView(updated);
}

export async function deleteWidget(db: AgentsDb, userId: string, id: string): Promise<WidgetView> {
  const row = await load(db, userId, id);
  await db.widget.delete({ where: { id: row.id } });
  return widgetView(row);
}
