import { Prisma } from "../generated/prisma/client.ts";
import { MAX_CHAT_MESSAGE_LENGTH, MAX_CHAT_TITLE_LENGTH } from "../../../lib/contracts/chat.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { CHAT_MESSAGE_TYPES, type ChatMessageType } from "../../../lib/vocabulary/agents.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import type { AgentsDb } from "../db.ts";
import type { CreateChatSessionInput } from "../types/chat.ts";

const DEFAULT_TITLE = "New chat";

export function createChatSession(db: AgentsDb, options: CreateChatSessionInput & { user_id: string }) {
  const title = options.title?.trim() || DEFAULT_TITLE;
  if (title.length > MAX_CHAT_TITLE_LENGTH) throw validationError(["title"], `Value error, at most ${MAX_CHAT_TITLE_LENGTH} characters`, options.title);
  return db.chatSession.create({ data: { id: newId("chs"), user_id: options.user_id, title } });
}

export function listChatSessions(db: AgentsDb, userId: string) {
  return db.chatSession.findMany({ where: { user_id: userId }, orderBy: [{ updated_at: "desc" }, { id: "desc" }] });
}

/** The user's session; another user's (or none) is CHT-404-001. */
export async function getChatSession(db: AgentsDb, options: { user_id: string; session_id: string }) {
  const session = await db.chatSession.findFirst({ where: { id: options.session_id, user_id: options.user_id } });
  if (!session) throw appError("CHT-404-001");
  return session;
}

/** A session's messages in order; with `last`, only the latest `last` of them (still in order). */
export async function listChatMessages(db: AgentsDb, options: { user_id: string; session_id: string; last?: number }) {
  await getChatSession(db, options);
  if (options.last === undefined) return db.chatMessage.findMany({ where: { session_id: options.session_id }, orderBy: { seq: "asc" } });
  return (await db.chatMessage.findMany({ where: { session_id: options.session_id }, orderBy: { seq: "desc" }, take: options.last })).reverse();
}

export interface NewChatMessage {
  type: string;
  content?: string | null;
  tool_call_id?: string | null;
  tool_name?: string | null;
  tool_arguments?: Record<string, unknown> | null;
  tool_result?: Record<string, unknown> | null;
}

/** What each type carries: text for user and assistant, the call for tool_call, its answer for tool_result. */
function checkMessage(message: NewChatMessage, index: number): ChatMessageType {
  const loc = (field: string) => ["messages", index, field];
  if (!isOneOf(CHAT_MESSAGE_TYPES, message.type)) throw validationError(loc("type"), `Input should be ${CHAT_MESSAGE_TYPES.map((t) => `'${t}'`).join(", ")}`, message.type, "enum");
  if ((message.type === "user" || message.type === "assistant") && !message.content?.trim()) throw validationError(loc("content"), "Field required", message.content ?? null, "missing");
  if (message.type === "user" && message.content!.length > MAX_CHAT_MESSAGE_LENGTH)
    throw validationError(loc("content"), `Value error, at most ${MAX_CHAT_MESSAGE_LENGTH} characters`, message.content);
  if (message.type === "tool_call" && (!message.tool_name || !message.tool_call_id)) throw validationError(loc("tool_name"), "Field required", message.tool_name ?? null, "missing");
  if (message.type === "tool_result" && !message.tool_call_id) throw validationError(loc("tool_call_id"), "Field required", null, "missing");
  return message.type;
}

/**
 * Appends messages to the user's session in order, in one database transaction: the session row
 * is locked first, so concurrent turns never take the same `seq`.
 */
export async function appendChatMessages(db: AgentsDb, options: { user_id: string; session_id: string; messages: NewChatMessage[] }) {
  const types = options.messages.map(checkMessage);
  return db.$transaction(async (tx) => {
    const [session] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM agents.chat_sessions WHERE id = ${options.session_id} AND user_id = ${options.user_id} FOR UPDATE`;
    if (!session) throw appError("CHT-404-001");
    const last = await tx.chatMessage.findFirst({ where: { session_id: session.id }, orderBy: { seq: "desc" }, select: { seq: true } });
    const created = [];
    for (const [index, message] of options.messages.entries()) {
      created.push(
        await tx.chatMessage.create({
          data: {
            id: newId("msg"),
            session_id: session.id,
            seq: (last?.seq ?? 0) + index + 1,
            type: types[index]!,
            content: message.content ?? null,
            tool_call_id: message.tool_call_id ?? null,
            tool_name: message.tool_name ?? null,
            tool_arguments: (message.tool_arguments ?? Prisma.DbNull) as Prisma.InputJsonValue,
            tool_result: (message.tool_result ?? Prisma.DbNull) as Prisma.InputJsonValue,
          },
        }),
      );
    }
    await tx.chatSession.update({ where: { id: session.id }, data: { updated_at: new Date() } });
    return created;
  });
}
