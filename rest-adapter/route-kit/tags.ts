import { AGENT_ACTION_TAG, AGENT_TOOL_TAG, SANDBOX_TAG } from "./route.ts";

/**
 * What each tag of the documents covers, shown beside its operations in `/docs` (OpenAPI Tag
 * Objects). Every tag a document declares has one; test/unit/openapi-documents.test.ts holds it.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // platform host (spec 1: its tags)
  User: "The authenticated user (`me`): creating the user for a JWT's subject, onboarding steps and the Safe, personal access tokens, phone verification, notifications, the PINT mandates the user signed, and the CLI's toggles.",
  KYC: "Identity verification with the external provider: a token for its web SDK, submissions and the verification status (spec 3.1).",
  Wallets: "The user's wallets: the primary EOA, the Safe smart account, further wallets and signer addresses, pregenerated wallets and proofs of address control.",
  "Wallet Assets": "What one of the user's wallets holds, with USD values.",
  Assets: "The asset catalogue, with USD prices.",
  "Bank Accounts": "The bank accounts the user linked through open banking.",
  Accounts: "The unified account view: every wallet and bank account with its balances and USD totals.",
  "Open Banking": "Linking a bank through the banking provider's widget, and on- and off-ramps between a linked bank account and a wallet (quotes first).",
  Cards: "Virtual and physical cards: issuing, controls, freezing, closing, authorizations, and revealing a card's details with a signed challenge (spec 3.3).",
  "Card Funding": "What a card spends from: a wallet or a linked bank account.",
  Transactions: "The unified transaction feed of the user's wallets, cards and bank accounts, with each transaction's category and note (spec 3.4).",
  Budgets: "Spending budgets per category and period, with the current period's spending.",
  Insights: "What the ledger says about the user's money: spikes, recurring charges, savings and budget warnings.",
  Strategies: "The catalogue of automation strategies.",
  "User Strategies": "The strategies the user turned on, with their parameters.",
  "Agent Tasks": "Background tasks an agent runs for the user (spec 3.5): queueing, progress and cancelling.",
  Chat: "Chat sessions with the assistant, which reads through the AgentTool operations and proposes writes the user confirms or declines.",
  Widgets: "The user's dashboard widgets and their data.",
  Connectors: "The catalogue of external services a user may connect.",
  "User Connectors": "The user's connections to external services: connecting, syncing, disconnecting.",
  "User Rules": "The user's rules, each a trigger and an action, with their firings.",
  Agent: "Agent tokens (`x-platform-token`): issuing them with their scopes, listing, revoking, and the requests made with each.",
  Auth: "Sign-in with Ethereum (EIP-4361): a nonce, then a signed message exchanged for a JWT.",
  Webhooks: "Receivers of the external providers' notifications (embedded wallet, KYC, banking), each checking its provider's signature (spec 4.5, 5.3).",
  Health: "Liveness and the state of the dependencies, for load balancers; no credential.",
  [AGENT_TOOL_TAG]:
    "Read-oriented operations meant for AI agents (spec 1), every one a GET that changes nothing: an agent token (`x-platform-token`, issued with POST /v0/agent/tokens) with the read scope an operation names may call it; the same token is refused everywhere else but the AgentAction operations (403 `AGT-403-002`). These are the tools the chat assistant and MCP offer every agent. Amounts are decimal strings, timestamps epoch milliseconds unless `X-Timestamp-Format: iso8601`.",
  [AGENT_ACTION_TAG]:
    "Writes an AI agent may make on its user's behalf, apart from the read-only AgentTool operations: only an agent token holding the write scope an operation names may call it (any other: 403 `AGT-403-001`), and MCP lists it only to such a token, as a tool that changes things (`readOnlyHint: false`; `destructiveHint` on deletes and cancels). Not part of the AgentTool contract (`/graphql/agent`).",
  [SANDBOX_TAG]: "Sandbox mode only (`SANDBOX=true`): helpers that play external providers offline. They do not exist, and are not documented, outside sandbox mode.",
  // identity host (spec 1, 4.6)
  "User Lookup": "Looking a user up by resource identifier with an API key holding `idsvc.lookup`; the fields returned follow the key's scopes.",
  Organisations: "The organisation a dashboard session administers: creating it, its name and contact email (spec 2.5).",
  Members: "The organisation's members (dashboard users) and their roles.",
  Environments: "The organisation's environments, each with its own users, keys and identity providers (spec 2.5).",
  "API Keys": "API keys: minting (the secret shown once), listing, reading and revoking; server keys (`idsvc_sk_…`) and public keys (`idsvc_pk_…`, the RPC host's) (spec 2.6, 4.7).",
  "Webhook Endpoints": "An environment's endpoints for outgoing events, with the event types each receives and its signing secret.",
  Events: "The organisation's outgoing events with their deliveries and attempts, and redelivery; the events themselves are under `webhooks`.",
  PINT: "Signed mandates (PINTs): exchanging one for a PINT JWT, the keys that verify it, the organisation's audiences and its mandates.",
  // RPC host
  "JSON-RPC": "JSON-RPC 2.0 per chain, forwarded to the chain's node, with a public API key holding `rpc.invoke`: an allow-list of methods, batches, and errors as JSON-RPC error objects.",
};
