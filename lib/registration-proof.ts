// REGISTRATION_PROOF: whether POST /v0/user/ demands proof of control of primary_eoa_address.
//
//   optional (default)   spec 4.3: the documented body registers; the address is recorded
//                        unproven (address_verified: false) until proven, and the privileges a
//                        squatter could abuse stay refused until then (WAL-403-001)
//   required             every environment refuses registration without proof (403 USR-403-002)
//   <env>,<env>,...      only these environments (`default`, or `<org-id>:<env-id>`) require it
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";

export type RegistrationProofPolicy = { required: "everywhere" } | { required: readonly string[] };

export function loadRegistrationProof(env: Env): RegistrationProofPolicy {
  const raw = envText(env, "REGISTRATION_PROOF");
  if (raw === undefined || raw === "optional") return { required: [] };
  if (raw === "required") return { required: "everywhere" };
  const environments = raw.split(",").map((id) => id.trim());
  for (const id of environments)
    if (id !== "default" && !/^[^:\s]+:[^:\s]+$/.test(id))
      throw new ConfigError("REGISTRATION_PROOF", `expected optional, required or a comma-separated list of environment ids (default or <org-id>:<env-id>), got "${id}"`);
  return { required: environments };
}

/** Whether registering in `environmentId` needs proof of control of the address. */
export function registrationProofRequired(policy: RegistrationProofPolicy, environmentId: string): boolean {
  return policy.required === "everywhere" || policy.required.includes(environmentId);
}
