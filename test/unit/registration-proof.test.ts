import { describe, expect, it } from "vitest";
import { ConfigError } from "../../lib/config-error.ts";
import { loadRegistrationProof, registrationProofRequired } from "../../lib/registration-proof.ts";

describe("REGISTRATION_PROOF", () => {
  it("is optional by default: spec 4.3's documented body registers everywhere", () => {
    for (const env of [{}, { REGISTRATION_PROOF: "optional" }]) {
      const policy = loadRegistrationProof(env);
      expect(registrationProofRequired(policy, "default")).toBe(false);
      expect(registrationProofRequired(policy, "org_a:env_a")).toBe(false);
    }
  });

  it("is required everywhere, or in the environments listed", () => {
    expect(registrationProofRequired(loadRegistrationProof({ REGISTRATION_PROOF: "required" }), "org_a:env_a")).toBe(true);
    const listed = loadRegistrationProof({ REGISTRATION_PROOF: "default, org_a:env_a" });
    expect(registrationProofRequired(listed, "default")).toBe(true);
    expect(registrationProofRequired(listed, "org_a:env_a")).toBe(true);
    expect(registrationProofRequired(listed, "org_a:env_b")).toBe(false);
  });

  it("refuses anything else, naming the variable", () => {
    for (const value of ["yes", "org_a", "default,,org_a:env_a"]) expect(() => loadRegistrationProof({ REGISTRATION_PROOF: value })).toThrow(ConfigError);
    expect(() => loadRegistrationProof({ REGISTRATION_PROOF: "yes" })).toThrow(/REGISTRATION_PROOF/);
  });
});
