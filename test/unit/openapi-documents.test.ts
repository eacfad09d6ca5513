import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { identityDocument, identityRoutes } from "../../rest-adapter/hosts/identity.ts";
import { platformDocument, platformRoutes } from "../../rest-adapter/hosts/platform.ts";
import { buildRpcOpenApiDocument } from "../../rest-adapter/hosts/rpc/openapi.ts";
import { SANDBOX_TAG } from "../../rest-adapter/route-kit/route.ts";
import { platformWebhooks } from "../../rest-adapter/webhooks/index.ts";
import { refsIn, resolveRef } from "../support/openapi-document.ts";

// Issue 32 item 4: the documents are lean (error responses shared through components/responses,
// served compressed: test/e2e/platform/docs.test.ts) and pass Redocly's recommended rules that
// are ours to meet: a description for every tag, a licence, discriminators that select named schemas.

type Document = {
  info: { description: string; license?: { name: string } };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { $ref?: string; description?: string }> }>>;
  components: { schemas: Record<string, any>; responses?: Record<string, unknown> };
};

const receivers = platformWebhooks({ walletClaimWebhookSecrets: [], kycWebhookToleranceSeconds: 300, bankingWebhookSecrets: [], bankingWebhookToleranceSeconds: 300, sandbox: true, internalSecret: "s".repeat(32) });
const urls = { baseUrl: "http://127.0.0.1:8080", docsUrl: "http://127.0.0.1:8080/docs", corsOrigins: [] };
const withoutSandbox = <T extends { tag: string }>(routes: T[]) => routes.filter((route) => route.tag !== SANDBOX_TAG);
const documents: Record<string, Document> = {
  platform: platformDocument(urls, withoutSandbox(platformRoutes), receivers) as Document,
  "platform (sandbox)": platformDocument(urls, platformRoutes, receivers) as Document,
  identity: identityDocument({ ...urls, baseUrl: "http://127.0.0.1:8081", pintDomainSalt: `0x${"ab".repeat(32)}` }, withoutSandbox(identityRoutes)) as Document,
  rpc: buildRpcOpenApiDocument({ rpcUrl: "http://127.0.0.1:8082", chains: [1, 8453], rateLimit: { limit: 1200, windowMs: 60_000 }, upstreamTimeoutMs: 10_000 }) as Document,
};
const each = Object.entries(documents);

describe("the documents' size", () => {
  // measured when the responses were shared: platform 728 KB (75 KB gzipped; 1.61 MB and 100 KB
  // before), with the sandbox routes 812 KB (81 KB); identity 337 KB (631 KB before). The bounds
  // leave room for routes to come, not for inlining the responses again.
  it.each([
    ["platform (sandbox)", 950_000, 100_000],
    ["identity", 450_000, 50_000],
    ["rpc", 60_000, 12_000],
  ])("%s: under %i bytes, %i gzipped", (name, raw, gzipped) => {
    const text = JSON.stringify(documents[name]);
    expect(text.length).toBeLessThan(raw);
    expect(gzipSync(text).length).toBeLessThan(gzipped);
  });

  it.each(each)("%s: every $ref resolves", (_name, document) => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolveRef(document, ref), ref).toBeDefined();
  });

  it.each(each.filter(([name]) => name !== "rpc"))("%s: shares the error responses several operations answer alike, and only those", (_name, document) => {
    const shared = document.components.responses ?? {};
    const uses = new Map<string, number>();
    const inline: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const operation of Object.values(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (response.$ref) uses.set(response.$ref, (uses.get(response.$ref) ?? 0) + 1);
          else if (Number(status) >= 400) inline.push(JSON.stringify(response).replaceAll(JSON.stringify(path), '"{path}"'));
        }
      }
    }
    expect(Object.keys(shared).length).toBeGreaterThan(10);
    // every shared response is answered by two operations or more, every inline one by its operation alone
    for (const name of Object.keys(shared)) expect(uses.get(`#/components/responses/${name}`), name).toBeGreaterThanOrEqual(2);
    expect(new Set(inline).size).toBe(inline.length);
    for (const response of inline) expect(Object.values(shared).map((r) => JSON.stringify(r))).not.toContain(response);
    // the bulk: most operations' 401 and 5xx are one response each
    expect([...uses.values()].some((count) => count > 20)).toBe(true);
  });
});

describe("what Redocly asks of the documents", () => {
  it.each(each)("%s: describes every tag, names a licence and lists its tags in info.description", (_name, document) => {
    expect(document.info.license?.name).toBeTruthy();
    expect(document.tags.length).toBeGreaterThan(1);
    for (const tag of document.tags) {
      expect(tag.description, tag.name).toBeTruthy();
      expect(document.info.description, tag.name).toContain(tag.name);
    }
  });

  it("the platform's info.description names what it covers now, not only users, KYC and wallets", () => {
    expect(documents.platform!.info.description).not.toMatch(/^Users, KYC, wallets and onboarding/);
    expect(documents.platform!.info.description).toMatch(/Operations by tag: Health, User, KYC, .*Cards.* and Webhooks\./);
  });

  it.each(each)("%s: each discriminator maps every value to a named member that requires the property as that constant", (_name, document) => {
    const unions: any[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        if ("discriminator" in node) unions.push(node);
        Object.values(node).forEach(walk);
      }
    };
    walk(document);
    if (document === documents.platform) expect(unions.length).toBeGreaterThan(0);
    for (const union of unions) {
      const { propertyName, mapping } = union.discriminator;
      const members: { $ref: string }[] = union.oneOf ?? union.anyOf;
      expect(Object.values(mapping).sort()).toEqual(members.map((member) => member.$ref).sort());
      for (const [value, ref] of Object.entries<string>(mapping)) {
        const member = resolveRef(document, ref);
        expect(member.required, ref).toContain(propertyName);
        expect(member.properties[propertyName].const, ref).toBe(value);
      }
    }
  });
});
