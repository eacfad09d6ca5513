import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { AgentsDb, AgentsTx, Prisma } from "../db.ts";

export type NotificationRow = NonNullable<Awaited<ReturnType<AgentsDb["notification"]["findUnique"]>>>;

export function notificationView(row: NotificationRow) {
  return { id: row.id, source: row.source, title: row.title, body: row.body, data: row.data as Record<string, unknown>, read_at: row.read_at, created_at: row.created_at };
}
export type NotificationView = ReturnType<typeof notificationView>;

/** Notifies the user once per `dedupe_key` (a repeated run finds its notification there); answers it. */
export async function notify(db: AgentsDb | AgentsTx, input: { user_id: string; source: string; title: string; body: string; data: Record<string, unknown>; dedupe_key: string }): Promise<NotificationView> {
  const row = await db.notification.upsert({
    where: { dedupe_key: input.dedupe_key },
    create: { id: newId("ntf"), ...input, data: input.data as Prisma.InputJsonValue },
    update: {},
  });
  return notificationView(row);
}

/** The user's notifications, newest first; only unread ones when asked. */
export async function listNotifications(db: AgentsDb, userId: string, filter: { unread: boolean; limit: number }): Promise<NotificationView[]> {
  const rows = await db.notification.findMany({ where: { user_id: userId, ...(filter.unread && { read_at: null }) }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: filter.limit });
  return rows.map(notificationView);
}

/** Marks the user's notification read (again: unchanged); another user's: NTF-404-001. */
export async function markNotificationRead(db: AgentsDb, userId: string, id: string): Promise<NotificationView> {
  await db.notification.updateMany({ where: { id, user_id: userId, read_at: null }, data: { read_at: new Date() } });
  const row = await db.notification.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("NTF-404-001");
  return notificationView(row);
}
