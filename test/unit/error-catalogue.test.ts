import { afterEach, describe, expect, it } from "vitest";
import { AppError, appError, fromExtensions, validationError, type ValidationItem } from "../../lib/errors/app-error.ts";
import { ERROR_CATALOGUE, errorDefinition, isErrorCode, type ErrorCode, type ErrorDefinition } from "../../lib/errors/catalogue.ts";
import { asAppError, renderProblem } from "../../rest-adapter/route-kit/problem.ts";

const CONTEXT = { instance: "/v0/wallets/7", trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", base_url: "https://api.platform.test", docs_url: "https://docs.platform.test", style: "platform" as const };
const entries = Object.entries(ERROR_CATALOGUE) as [ErrorCode, ErrorDefinition][];

describe("error catalogue (spec 7.1)", () => {
  it.each(entries)("%s is {DOMAIN}-{STATUS}-{SEQUENCE} with STATUS equal to its HTTP status", (code, definition) => {
    expect(code).toMatch(/^[A-Z]{3,4}-\d{3}-\d{3}$/);
    expect(Number(code.split("-")[1])).toBe(definition.status);
    expect(definition.status).toBeGreaterThanOrEqual(400);
    expect(definition.status).toBeLessThan(600);
    expect(definition.title.trim()).not.toBe("");
    expect(definition.detail.trim()).not.toBe("");
  });

  it.each([
    ["USR-401-001", 401, "User Authentication Failed"],
    ["USR-401-002", 401, "Invalid Org ID Format"],
    ["USR-404-001", 404, undefined],
    ["WAL-404-001", 404, "Wallet Not Found"],
    ["WHK-401-001", 401, undefined],
  ] as const)("holds the platform code %s of spec 7.2", (code, status, title) => {
    expect(isErrorCode(code)).toBe(true);
    expect(errorDefinition(code).status).toBe(status);
    if (title) expect(errorDefinition(code).title).toBe(title);
  });

  it("knows only its own codes", () => {
    expect(isErrorCode("USR-401-001")).toBe(true);
    expect(isErrorCode("usr-401-001")).toBe(false);
    expect(isErrorCode("XYZ-999-999")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(401)).toBe(false);
  });
});

describe("renderProblem (spec 2.9, 7.1)", () => {
  it("renders a platform error with type {base_url}/errors/<code lower case> and no documentation", () => {
    const problem = renderProblem(appError("WAL-404-001"), CONTEXT);
    expect(problem).toEqual({
      type: "https://api.platform.test/errors/wal-404-001",
      title: "Wallet Not Found",
      status: 404,
      detail: ERROR_CATALOGUE["WAL-404-001"].detail,
      instance: "/v0/wallets/7",
      error_code: "WAL-404-001",
      trace_id: CONTEXT.trace_id,
    });
  });

  it("uses a caller's specific detail over the catalogue default", () => {
    expect(renderProblem(appError("USR-401-001", "The JWT has expired."), CONTEXT).detail).toBe("The JWT has expired.");
  });

  it("renders generic errors on the identity host in its style: type name from the title, plus documentation", () => {
    const problem = renderProblem(appError("GEN-404-001"), { ...CONTEXT, style: "identity" });
    expect(problem.type).toBe("https://docs.platform.test/errors/not_found");
    expect(problem.documentation).toBe("https://docs.platform.test/errors/GEN-404-001");
    expect(renderProblem(appError("GEN-404-001"), CONTEXT)).not.toHaveProperty("documentation");
  });

  it("renders validation errors with the items as detail", () => {
    const error = validationError(["body", "chain_id"], "Value error, unsupported chain", 999, "value_error", { supported: [1] });
    const problem = renderProblem(error, CONTEXT);
    expect(problem.status).toBe(422);
    expect(problem.error_code).toBe("GEN-422-001");
    expect(problem.detail).toEqual([{ type: "value_error", loc: ["body", "chain_id"], msg: "Value error, unsupported chain", input: 999, ctx: { supported: [1] } }]);
  });

  describe("identity-service entries (with type_name)", () => {
    const injected = "PINT-401-001" as ErrorCode;
    const catalogue = ERROR_CATALOGUE as unknown as Record<string, ErrorDefinition>;
    const had = Object.hasOwn(catalogue, injected);
    afterEach(() => {
      if (!had) delete catalogue[injected];
    });

    it("renders type {docs_url}/errors/<type name> and documentation {docs_url}/errors/<error_code>", () => {
      if (!had) catalogue[injected] = { status: 401, title: "Invalid Signature", detail: "EIP-712 verification failed.", type_name: "invalid_signature" };
      const withTypeName = Object.entries(catalogue).filter(([, d]) => d.type_name !== undefined);
      expect(withTypeName.length).toBeGreaterThan(0);
      for (const [code, definition] of withTypeName) {
        const problem = renderProblem(new AppError(code as ErrorCode), CONTEXT);
        expect(problem.type).toBe(`https://docs.platform.test/errors/${definition.type_name}`);
        expect(problem.documentation).toBe(`https://docs.platform.test/errors/${code}`);
        expect(problem).toMatchObject({ status: definition.status, title: definition.title, error_code: code, instance: CONTEXT.instance, trace_id: CONTEXT.trace_id });
      }
    });
  });
});

describe("AppError extensions and fromExtensions", () => {
  it("round-trips code, detail, status and title", () => {
    const original = appError("USR-401-004", "The token was revoked.");
    const back = fromExtensions(JSON.parse(JSON.stringify(original.extensions)));
    expect(back).toBeInstanceOf(AppError);
    expect(back).toMatchObject({ code: "USR-401-004", status: 401, title: original.title, detail: "The token was revoked." });
    expect(back?.retryAfter).toBeUndefined();
    expect(back?.validation).toBeUndefined();
  });

  it("round-trips retry_after and validation", () => {
    const items: ValidationItem[] = [{ type: "missing", loc: ["body", "name"], msg: "Field required", input: {}, ctx: {} }];
    const limited = new AppError("PHN-429-001", { retryAfter: 42 });
    expect(limited.extensions.retry_after).toBe(42);
    expect(fromExtensions(JSON.parse(JSON.stringify(limited.extensions)))?.retryAfter).toBe(42);
    const invalid = new AppError("GEN-422-001", { validation: items });
    const back = fromExtensions(JSON.parse(JSON.stringify(invalid.extensions)));
    expect(back?.validation).toEqual(items);
    expect(renderProblem(back!, CONTEXT).detail).toEqual(items);
  });

  it("keeps the original cause out of the extensions", () => {
    const error = appError("GEN-502-001", undefined, { cause: new Error("secret upstream URL") });
    expect(JSON.stringify(error.extensions)).not.toContain("secret upstream URL");
    expect(error.detail).toBe(ERROR_CATALOGUE["GEN-502-001"].detail);
  });

  it("gives undefined for extensions without a catalogue code", () => {
    expect(fromExtensions(undefined)).toBeUndefined();
    expect(fromExtensions({})).toBeUndefined();
    expect(fromExtensions({ code: "INTERNAL_SERVER_ERROR" })).toBeUndefined();
    expect(fromExtensions({ error_code: "NOPE-000-000" })).toBeUndefined();
  });

  it("falls back to the catalogue detail when the extensions carry none", () => {
    expect(fromExtensions({ error_code: "USR-401-001" })?.detail).toBe(ERROR_CATALOGUE["USR-401-001"].detail);
  });
});

describe("asAppError", () => {
  it("passes catalogue errors through and hides anything else as GEN-500-001", () => {
    const known = appError("WAL-404-001");
    expect(asAppError(known)).toBe(known);
    const hidden = asAppError(new Error("database password is hunter2"));
    expect(hidden.code).toBe("GEN-500-001");
    expect(hidden.status).toBe(500);
    expect(renderProblem(hidden, CONTEXT).detail).not.toContain("hunter2");
  });
});
