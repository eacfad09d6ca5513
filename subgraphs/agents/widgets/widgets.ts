import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { WidgetType } from "../../../lib/vocabulary/agents.ts";
import type { AgentsDb, Prisma } from "../db.ts";
import { checkWidgetSettings } from "./widget-settings.ts";

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
