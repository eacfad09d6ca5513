import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { checkRoleChange } from "../../subgraphs/identity/members/members.ts";

// Security review item 9: the role rules, as a plain function (from, to: null means "not a member").
function outcome(actor: string, from: string | null, to: string | null, owners: number): string {
  try {
    checkRoleChange(actor, from, to, owners);
    return "allowed";
  } catch (error) {
    return (error as AppError).code;
  }
}

describe("checkRoleChange", () => {
  it("lets admins manage non-owners only", () => {
    expect(outcome("admin", null, "member", 0)).toBe("allowed");
    expect(outcome("admin", null, "admin", 0)).toBe("allowed");
    expect(outcome("admin", "member", "admin", 0)).toBe("allowed");
    expect(outcome("admin", "admin", null, 0)).toBe("allowed");
    expect(outcome("admin", null, "owner", 0)).toBe("IDS-403-004");
    expect(outcome("admin", "member", "owner", 0)).toBe("IDS-403-004");
    expect(outcome("admin", "owner", "admin", 2)).toBe("IDS-403-004");
    expect(outcome("admin", "owner", null, 2)).toBe("IDS-403-004");
  });

  it("lets owners grant and take away owner, but keeps the last owner", () => {
    expect(outcome("owner", null, "owner", 0)).toBe("allowed");
    expect(outcome("owner", "admin", "owner", 1)).toBe("allowed");
    expect(outcome("owner", "owner", "member", 2)).toBe("allowed");
    expect(outcome("owner", "owner", null, 2)).toBe("allowed");
    expect(outcome("owner", "owner", "admin", 1)).toBe("IDS-409-002");
    expect(outcome("owner", "owner", null, 1)).toBe("IDS-409-002");
    expect(outcome("owner", "owner", "owner", 1)).toBe("allowed");
  });
});
