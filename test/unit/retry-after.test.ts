import { GraphQLError, parse } from "graphql";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { FederatedClient, type SubgraphTransport } from "../../lib/graphql/federated-client.ts";
import { answerGraphqlErrors } from "../../lib/graphql/http-errors.ts";
import { createHttpServer } from "../../lib/http.ts";

describe("Retry-After on every 503", () => {
  it("a 503 that names no Retry-After gets one second, whoever answered it; one that names its own keeps it", async () => {
    const app = createHttpServer(pino({ level: "silent" }));
    app.get("/bare", async (_request, reply) => reply.code(503).send({ down: true }));
    app.get("/own", async (_request, reply) => reply.code(503).header("retry-after", "7").send({ down: true }));
    app.get("/ok", async () => ({ up: true }));
    const answer = async (url: string) => (await app.inject({ method: "GET", url })).headers["retry-after"];
    expect(await answer("/bare")).toBe("1");
    expect(await answer("/own")).toBe("7");
    expect(await answer("/ok")).toBeUndefined();
    await app.close();
  });

  it("a GraphQL listener's 503 error without seconds of its own carries one second too", async () => {
    const app = createHttpServer(pino({ level: "silent" }));
    answerGraphqlErrors(app);
    app.get("/graphql", async () => {
      throw new AppError("GEN-503-001", { detail: "The users service could not answer." });
    });
    const response = await app.inject({ method: "GET", url: "/graphql" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("1");
    await app.close();
  });

  it("a peer whose database is away is the database being away, with its Retry-After, not a peer that could not answer", async () => {
    // in one process a peer's resolver errors arrive unmasked: the driver's error is their cause
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const transport: SubgraphTransport = { execute: async () => ({ errors: [new GraphQLError("Invalid `db.wallet.findFirst()` invocation", { originalError: refused })] }) };
    const peer = new FederatedClient("users", transport, "finance");
    const error = await peer.query(parse("{ __typename }"), {}, "trace").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "GEN-503-001", retryAfter: 1, detail: "The database is unavailable right now; retry shortly." });
    expect((error as AppError).extensions.retry_after).toBe(1);
  });
});
