import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { FinanceDb } from "../db.ts";
import type { UpdateCardInput } from "../types/card.ts";
import { applyControls } from "./card-controls.ts";
import { cardView, controlsOf, findOwnCardRow, type CardView } from "./card-view.ts";
import { CARD_DECIMALS } from "./card-settlement.ts";

export const MAX_NICKNAME_LENGTH = 64;

/** Sets the card's nickname and controls (absent: unchanged, null: cleared); a closed card is CRD-409-001. */
export async function updateCard(db: FinanceDb, options: UpdateCardInput & { user_id: string; card_id: string }): Promise<CardView> {
  if (typeof options.nickname === "string" && options.nickname.length > MAX_NICKNAME_LENGTH)
    throw validationError(["nickname"], `String should have at most ${MAX_NICKNAME_LENGTH} characters`, options.nickname, "string_too_long", { max_length: MAX_NICKNAME_LENGTH });
  return db.$transaction(async (tx) => {
    const current = await findOwnCardRow(tx, options.user_id, options.card_id);
    if (current.status === "closed") throw appError("CRD-409-001", "The card is closed; it can no longer be changed.");
    const controls = applyControls(controlsOf(current), options.controls ?? undefined, CARD_DECIMALS);
    await tx.card.update({
      where: { id: current.id },
      data: { ...(options.nickname !== undefined && { nickname: options.nickname }), ...controls, updated_at: new Date() },
    });
    return cardView(tx, await findOwnCardRow(tx, options.user_id, options.card_id));
  });
}
