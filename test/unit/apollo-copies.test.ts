import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * gateway/result-shaping.ts and gateway/plan-execution.ts are faster copies of Apollo Gateway's
 * computeResponse and executeQueryPlan (issue 30). Their tests compare answers with Apollo's own,
 * but only for the cases they name: when an upgrade changes the sources they copy, the copies
 * must be read against the new code, not trusted. Each entry is the file copied and its digest
 * at the version the copy follows.
 */
const COPIED = [
  { file: "@apollo/gateway/dist/resultShaping.js", sha256: "eb49b81fe4ba3b7b44d24c6279d92aab2a148f89e93737a8671753156b1b8466", copy: "gateway/result-shaping.ts" },
  { file: "@apollo/gateway/dist/executeQueryPlan.js", sha256: "4e7a0dd67044022bdea7fe3a9be96a3a44d07bff9ea39d84d43320a744e8a5c7", copy: "gateway/plan-execution.ts" },
  // ApolloGateway's executor, of which plan-execution.ts keeps the variables' check and when Apollo's own path must run (tracing, plans asked for)
  { file: "@apollo/gateway/dist/index.js", sha256: "8e3c9d56e42cdb04e8ebe60622269ac87768965f14b669ef83c3cf44ed9d02b5", copy: "gateway/plan-execution.ts" },
];

const require = createRequire(import.meta.url);

describe("the copies of Apollo Gateway's code", () => {
  it.each(COPIED)("$copy follows the installed $file", ({ file, sha256, copy }) => {
    const digest = createHash("sha256").update(readFileSync(require.resolve(file))).digest("hex");
    expect(digest, `${file} changed: compare ${copy} with it, then record its new digest here`).toBe(sha256);
  });
});
