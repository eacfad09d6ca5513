import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids.ts";
import type { AgentsDb } from "../../subgraphs/agents/db.ts";
import { issueAgentToken, listAgentTokenUses, principalForAgentToken, recordAgentTokenUse, revokeAgentToken } from "../../subgraphs/agents/tokens/agent-tokens.ts";
import { openAgentsDb } from "../support/agents-db.ts";

// Issue 11, agent tokens in the agents subgraph's store: only live tokens name a principal.

let db: AgentsDb;
let close: () => Promise<void>;
const DAY = 86_400_000;

beforeAll(async () => {
  ({ db, close } = await openAgentsDb());
});
afterAll(() => close());

const issue = (extra: { expires_in_days?: number; now?: Date } = {}) =>
  issueAgentToken(db, { user_id: newId("usr"), environment_id: "default", name: "bot", scopes: ["read:balances", "read:transactions"], ...extra });

describe("principalForAgentToken", () => {
  it("names the token's user, environment and scopes (in spec order) while it lives", async () => {
    const issued = await issue();
    expect(await principalForAgentToken(db, issued.token)).toEqual({ token_id: issued.id, user_id: issued.user_id, environment_id: "default", scopes: ["read:transactions", "read:balances"], wallet_ids: [] });
  });

  it("names no one once the token expired, at the instant it expires", async () => {
    const now = new Date();
    const issued = await issue({ expires_in_days: 1, now });
    expect(await principalForAgentToken(db, issued.token, new Date(now.getTime() + DAY - 1))).not.toBeNull();
    expect(await principalForAgentToken(db, issued.token, new Date(now.getTime() + DAY))).toBeNull();
  });

  it("names no one for a revoked token, a mistyped one or one of another kind", async () => {
    const issued = await issue();
    await revokeAgentToken(db, { user_id: issued.user_id, token_id: issued.id });
    expect(await principalForAgentToken(db, issued.token)).toBeNull();
    const live = await issue();
    expect(await principalForAgentToken(db, `${live.token.slice(0, -1)}${live.token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(await principalForAgentToken(db, live.token.replace("plat_agt_", "plat_pat_"))).toBeNull();
  });
});

describe("uses", () => {
  it("keeps each use, newest first, and bounds the listing", async () => {
    const issued = await issue();
    for (let i = 0; i < 3; i++) await recordAgentTokenUse(db, { token_id: issued.id, operation: `Op${i}`, outcome: "ok", at: new Date(Date.now() + i) });
    const uses = await listAgentTokenUses(db, { user_id: issued.user_id, token_id: issued.id, limit: 2 });
    expect(uses.map((u) => u.operation)).toEqual(["Op2", "Op1"]);
    await expect(listAgentTokenUses(db, { user_id: issued.user_id, token_id: issued.id, limit: 201 })).rejects.toMatchObject({ code: "GEN-422-001" });
    await expect(listAgentTokenUses(db, { user_id: newId("usr"), token_id: issued.id })).rejects.toMatchObject({ code: "AGT-404-001" });
  });
});
