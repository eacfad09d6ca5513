import resultShaping from "@apollo/gateway/dist/resultShaping.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apolloComputeResponse } from "../../../gateway/result-shaping.ts";
import { sandboxDeposit, userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// The gateway shapes answers with its own copy of Apollo's computeResponse (gateway/result-shaping.ts):
// a query over three subgraphs, and one with aliases, fragments, @skip and __typename, answer the
// same bytes as with Apollo's own, through Apollo Server and through the known path.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  for (const amount of ["1.5", "2"]) await sandboxDeposit(platform, user.jwt, user.wallet_id, "ETH", amount);
});
afterAll(() => platform?.stop());

const THREE_SUBGRAPHS = `{ me { id status primary_eoa_address wallets { id address chain_id safe_creation_status } pints { active_count } transactions(page: { limit: 10 }) { items { id type direction amount currency status timestamp } pagination { total } } } }`;
const SHAPED = `query Shaped($s: Boolean!) { me { __typename i: id ...U w: wallets @skip(if: $s) { id } transactions { __typename items { ... on Transaction { id amount } } } } } fragment U on User { status wallets { address } }`;

async function bodies(query: string, variables: Record<string, unknown>): Promise<string[]> {
  const answers = [];
  // Apollo Server's answer, then the known path's
  for (let run = 0; run < 3; run++) {
    const response = await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": user.jwt }, body: JSON.stringify({ query, variables }) });
    expect(response.status).toBe(200);
    answers.push(await response.text());
  }
  return answers;
}

it.each([
  ["the three-subgraph query", THREE_SUBGRAPHS, {}],
  ["aliases, fragments, @skip and __typename (skipped)", SHAPED, { s: true }],
  ["aliases, fragments, @skip and __typename (not skipped)", SHAPED, { s: false }],
])("%s: the same bytes as Apollo's shaping gives", async (_name, query, variables) => {
  const ours = await bodies(query, variables);
  const installed = resultShaping.computeResponse;
  resultShaping.computeResponse = apolloComputeResponse;
  try {
    const apollo = await bodies(query, variables);
    expect(ours).toEqual(apollo);
    expect(JSON.parse(ours[0]!).errors).toBeUndefined();
  } finally {
    resultShaping.computeResponse = installed;
  }
});
