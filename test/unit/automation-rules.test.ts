import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { compareDecimals, roundUpDifference, subtractDecimals } from "../../lib/decimal.ts";
import { AGENT_TASK_FINAL_STATUSES, AGENT_TASK_STATUSES, USER_CONNECTOR_STATUSES, USER_STRATEGY_STATUSES } from "../../lib/vocabulary/agents.ts";
import { nextConnectorStatus, requireConnectorMove } from "../../subgraphs/agents/connectors/connector-status.ts";
import { canMoveUserStrategy, requireUserStrategyMove } from "../../subgraphs/agents/strategies/user-strategy-status.ts";
import { canMoveTask, isFinalTaskStatus, requireTaskMove } from "../../subgraphs/agents/tasks/task-status.ts";

describe("an agent task's moves (spec 3.5)", () => {
  const allowed = new Set(["queued>next", "next>running", "running>completed", "running>failed", "running>cancelled"]);

  it("allows exactly the spec's five moves and refuses every other with TSK-409-001 naming the current status", () => {
    for (const from of AGENT_TASK_STATUSES)
      for (const to of AGENT_TASK_STATUSES) {
        expect([from, to, canMoveTask(from, to)]).toEqual([from, to, allowed.has(`${from}>${to}`)]);
        if (allowed.has(`${from}>${to}`)) continue;
        try {
          requireTaskMove(from, to);
          expect.unreachable(`${from} → ${to}`);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe("TSK-409-001");
          expect((error as AppError).detail).toContain(`The task is ${from}`);
        }
      }
    expect(AGENT_TASK_STATUSES.filter(isFinalTaskStatus)).toEqual([...AGENT_TASK_FINAL_STATUSES]);
  });
});

describe("a user strategy's moves (spec 3.6 states, our transitions)", () => {
  const allowed = new Set(["enabled>disabled>user", "disabled>enabled>user", "enabled>error>run_failures", "error>enabled>user", "error>disabled>user"]);

  it("lets the user enable and disable, only failing runs put it in error, and nothing else moves", () => {
    for (const from of USER_STRATEGY_STATUSES)
      for (const to of USER_STRATEGY_STATUSES)
        for (const cause of ["user", "run_failures"] as const) {
          const legal = allowed.has(`${from}>${to}>${cause}`);
          expect([from, to, cause, canMoveUserStrategy(from, to, cause)]).toEqual([from, to, cause, legal]);
          if (!legal) expect(() => requireUserStrategyMove(from, to, cause)).toThrow(expect.objectContaining({ code: "STR-409-001" }));
        }
  });
});

describe("round-up arithmetic", () => {
  it("rounds up to the next multiple of the step, exactly, times the multiplier", () => {
    expect(roundUpDifference("12.30", 1)).toBe("0.7");
    expect(roundUpDifference("4.99", 1)).toBe("0.01");
    expect(roundUpDifference("7", 1)).toBe("0");
    expect(roundUpDifference("7.00", 5)).toBe("3");
    expect(roundUpDifference("12.3", 10, 2)).toBe("15.4");
    expect(roundUpDifference("0.000001", 1)).toBe("0.999999");
    expect(subtractDecimals("20", "50")).toBe("-30");
    expect(compareDecimals("0.10", "0.1")).toBe(0);
    expect(compareDecimals("-1", "0")).toBe(-1);
  });
});

describe("a connection's moves (spec 3.6 states, our transitions)", () => {
  const allowed: Record<string, string> = {
    "connected disconnect": "disconnected",
    "connected sync_failed": "error",
    "connected reconnect": "connected",
    "error sync_succeeded": "connected",
    "error reconnect": "connected",
    "error disconnect": "disconnected",
    "disconnected reconnect": "connected",
  };

  it("has exactly the table's moves and refuses every other with CON-409-001", () => {
    for (const from of USER_CONNECTOR_STATUSES)
      for (const trigger of ["reconnect", "disconnect", "sync_failed", "sync_succeeded"] as const) {
        expect([from, trigger, nextConnectorStatus(from, trigger)]).toEqual([from, trigger, allowed[`${from} ${trigger}`] ?? null]);
        if (!allowed[`${from} ${trigger}`]) expect(() => requireConnectorMove(from, trigger)).toThrow(expect.objectContaining({ code: "CON-409-001" }));
      }
  });
});
