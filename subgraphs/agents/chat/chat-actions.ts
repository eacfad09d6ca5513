import { Prisma } from "../generated/prisma/client.ts";
import { CHAT_ACTION_TTL_MS } from "../../../lib/contracts/chat.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { AgentsDb } from "../db.ts";
import { chatActionStatus, interruptedRun, requireChatActionMove } from "./chat-action-status.ts";
import { getChatSession } from "./chat-sessions.ts";

export interface NewChatAction {
  tool_call_id: string;
  tool_name: string;
  method: string;
  path: string;
  body?: Record<string, unknown> | null;
  summary: string;
}

type ChatActionRow = Awaited<ReturnType<AgentsDb["chatAction"]["findFirstOrThrow"]>>;

/** The row as answered: its status as of now (a stale proposal is `expired`). */
export function chatActionView(row: ChatActionRow, now: Date = new Date()) {
  return { ...row, status: chatActionStatus(row, now) };
}

/** Stores the assistant's proposed writes in the user's session, each waiting CHAT_ACTION_TTL_MS for the user. */
export async function proposeChatActions(db: AgentsDb, options: { user_id: string; session_id: string; actions: NewChatAction[]; now?: Date }) {
  await getChatSession(db, options);
  const now = options.now ?? new Date();
  const expires_at = new Date(now.getTime() + CHAT_ACTION_TTL_MS);
  const created = [];
  // one millisecond apart, so the session's list (created_at, then id) keeps the model's call order
  for (const [i, action] of options.actions.entries()) {
    const created_at = new Date(now.getTime() + i);
    created.push(
      await db.chatAction.create({
        data: {
          id: newId("act", created_at.getTime()),
          session_id: options.session_id,
          user_id: options.user_id,
          ...action,
          body: (action.body ?? Prisma.DbNull) as Prisma.InputJsonValue,
          status: "proposed",
          expires_at,
          created_at,
        },
      }),
    );
  }
  return created.map((row) => chatActionView(row, now));
}

/** The session an agent token's proposals wait in, one per token, made on its first proposal. */
export function agentProposalSessionTitle(tokenName: string): string {
  return `Proposals from agent token ${tokenName}`.slice(0, 200);
}

/**
 * An agent token proposes writes its scopes do not cover (MCP): they wait in its user's session
 * for that token, for the user to confirm or decline like the assistant's. A revoked or expired
 * token proposes nothing (AGT-403-002 would have refused it earlier; here it is USR-401-005).
 */
export async function proposeAgentActions(db: AgentsDb, options: { token_id: string; actions: NewChatAction[]; now?: Date }) {
  const now = options.now ?? new Date();
  const token = await db.agentToken.findFirst({ where: { id: options.token_id, revoked_at: null, expires_at: { gt: now } }, select: { user_id: true, name: true } });
  if (!token) throw appError("USR-401-005");
  const title = agentProposalSessionTitle(token.name);
  const session = (await db.chatSession.findFirst({ where: { user_id: token.user_id, title }, orderBy: { created_at: "asc" } })) ?? (await db.chatSession.create({ data: { id: newId("chs"), user_id: token.user_id, title } }));
  return proposeChatActions(db, { user_id: token.user_id, session_id: session.id, actions: options.actions, now });
}

export async function listChatActions(db: AgentsDb, options: { user_id: string; session_id: string }) {
  await getChatSession(db, options);
  const rows = await db.chatAction.findMany({ where: { session_id: options.session_id }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  const now = new Date();
  return rows.map((row) => chatActionView(row, now));
}

async function findChatAction(db: AgentsDb, options: { user_id: string; session_id: string; action_id: string }) {
  await getChatSession(db, options);
  const row = await db.chatAction.findFirst({ where: { id: options.action_id, session_id: options.session_id, user_id: options.user_id } });
  if (!row) throw appError("CHT-404-002");
  return row;
}

/**
 * The user's decision on a proposal: `confirmed` claims it (once: a guarded update, so two
 * confirmations never both run it) and answers the stored request for the adapter to run with
 * the user's credential; `declined` closes it. An expired or decided action is CHT-409-001, except
 * a confirmed one whose run was interrupted (`interruptedRun`): confirming it again answers it to
 * run again, with the same Idempotency-Key.
 */
export async function decideChatAction(db: AgentsDb, options: { user_id: string; session_id: string; action_id: string; decision: "confirmed" | "declined"; now?: Date }) {
  const now = options.now ?? new Date();
  const row = await findChatAction(db, options);
  if (options.decision === "confirmed" && interruptedRun(row, now)) {
    // taken over by one confirmation (a guarded update), which runs the stored request again
    const resumed = await db.chatAction.updateMany({ where: { id: row.id, status: "confirmed", decided_at: row.decided_at }, data: { decided_at: now } });
    if (resumed.count !== 1) throw appError("CHT-409-001", "The action is being run by another request.");
    return chatActionView(await db.chatAction.findUniqueOrThrow({ where: { id: row.id } }), now);
  }
  requireChatActionMove(chatActionStatus(row, now), options.decision);
  const claimed = await db.chatAction.updateMany({ where: { id: row.id, status: "proposed", expires_at: { gt: now } }, data: { status: options.decision, decided_at: now } });
  if (claimed.count !== 1) throw appError("CHT-409-001", "The action was decided by another request a moment ago.");
  return chatActionView(await db.chatAction.findUniqueOrThrow({ where: { id: row.id } }), now);
}

/** Records the confirmed write's answer: completed for a 2xx, failed otherwise. */
export async function settleChatAction(db: AgentsDb, options: { action_id: string; result_status: number; result: Record<string, unknown> | null }) {
  const row = await db.chatAction.findUnique({ where: { id: options.action_id } });
  if (!row) throw appError("CHT-404-002");
  const to = options.result_status >= 200 && options.result_status < 300 ? "completed" : "failed";
  requireChatActionMove(chatActionStatus(row), to);
  const settled = await db.chatAction.update({
    where: { id: row.id, status: "confirmed" },
    data: { status: to, result_status: options.result_status, result: (options.result ?? Prisma.DbNull) as Prisma.InputJsonValue },
  });
  return chatActionView(settled);
}
