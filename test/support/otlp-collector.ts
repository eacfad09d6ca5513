import { createServer } from "node:http";

export interface CollectedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP (JSON) trace collector on loopback: what the exporters under test send to /v1/traces. */
export async function startOtlpCollector(): Promise<{ url: string; spans: CollectedSpan[]; stop(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as any;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((a: any) => a.key === "service.name")?.value?.stringValue ?? "";
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? [])
              spans.push({
                service,
                scope: scopeSpans.scope?.name ?? "",
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? "",
                name: span.name,
                kind: span.kind,
                attributes: Object.fromEntries((span.attributes ?? []).map((a: any) => [a.key, Object.values(a.value ?? {})[0]])),
              });
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, spans, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
