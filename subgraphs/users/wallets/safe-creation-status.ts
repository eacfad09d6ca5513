import type { SafeCreationStatus } from "../../../lib/vocabulary/wallets.ts";

/** The moves between the Safe creation states of spec 3.2. */
export type SafeCreationTrigger = "triggered" | "deployed" | "deployment_failed" | "retry";

const TRANSITIONS: Record<SafeCreationTrigger, Partial<Record<SafeCreationStatus | "none", SafeCreationStatus>>> = {
  triggered: { none: "processing" },
  deployed: { processing: "completed" },
  deployment_failed: { processing: "failed" },
  retry: { failed: "processing" },
};

/** The next Safe creation status, or null when spec 3.2 has no such move. */
export function nextSafeCreationStatus(from: SafeCreationStatus | null, trigger: SafeCreationTrigger): SafeCreationStatus | null {
  return TRANSITIONS[trigger][from ?? "none"] ?? null;
}
