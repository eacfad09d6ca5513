import { keccak256, stringToHex, type Address, type Hex } from "viem";
import { predictOrRefuse, type SafeDeployer, type SafeDeploymentRequest, type SafeDeploymentResult } from "./safe-deployer.ts";

export interface SandboxSafeDeployerOptions {
  /** How long a deployment stays `pending` after the first call for its event. */
  delayMs: number;
  /** A reason to fail this request permanently, or undefined to let it succeed. */
  fail?: (request: SafeDeploymentRequest) => string | undefined;
  now?: () => number;
}

/**
 * A deployer for sandbox environments: no chain, but the same contract as the real one — the
 * predicted Safe address, an asynchronous `pending` phase, permanent failures on demand, and a
 * well-formed transaction hash. State lives in memory; the caller's job row is the durable record.
 */
export class SandboxSafeDeployer implements SafeDeployer {
  readonly name = "sandbox";
  private readonly startedAt = new Map<string, number>();
  // Like CREATE2 on a chain: an address deploys once; a later event for it finds it there.
  private readonly deployedBy = new Map<Address, string>();

  constructor(private readonly options: SandboxSafeDeployerOptions) {}

  async deploy(request: SafeDeploymentRequest): Promise<SafeDeploymentResult> {
    const reason = this.options.fail?.(request);
    if (reason !== undefined) return { status: "failed", reason, retryable: false };
    const predicted = predictOrRefuse(request);
    if ("failure" in predicted) return predicted.failure;
    const { address } = predicted;

    const deployer = this.deployedBy.get(address);
    if (deployer !== undefined && deployer !== request.eventId) return { status: "completed", address };

    const now = (this.options.now ?? Date.now)();
    const startedAt = this.startedAt.get(request.eventId) ?? now;
    this.startedAt.set(request.eventId, startedAt);
    const remainingMs = startedAt + this.options.delayMs - now;
    if (remainingMs > 0) return { status: "pending", retryAfterMs: remainingMs };

    this.deployedBy.set(address, request.eventId);
    return { status: "completed", address, transactionHash: sandboxTransactionHash(request.eventId) };
  }
}

/** Stable per event, so every retry reports the same "transaction". */
function sandboxTransactionHash(eventId: string): Hex {
  return keccak256(stringToHex(`sandbox-safe-deployment:${eventId}`));
}
