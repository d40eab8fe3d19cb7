import { startLoopbackHttpServer, type LoopbackHttpServer } from './loopback-http-server.js';

/** A span as the OTLP/HTTP JSON encoding sends it, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** The span as received, for checks on everything it carries. */
  raw: unknown;
}

export interface FakeOtlpReceiver {
  /** The OTLP endpoint to configure (OTEL_EXPORTER_OTLP_ENDPOINT); spans arrive at `/v1/traces`. */
  endpoint: string;
  spans(): ReceivedSpan[];
  /** Every byte received, to check that no secret or prompt text left the service. */
  rawBodies(): string[];
  close(): Promise<void>;
}

function attributeValue(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) {
    const values = (value.arrayValue as { values?: Array<Record<string, unknown>> }).values ?? [];
    return values.map(attributeValue);
  }
  return value;
}

/** An OpenTelemetry collector on loopback that accepts OTLP/HTTP JSON traces and records their spans. */
export async function startFakeOtlpReceiver(): Promise<FakeOtlpReceiver> {
  const server: LoopbackHttpServer = await startLoopbackHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  return {
    endpoint: server.origin,
    rawBodies: () => server.received.filter((request) => request.path === '/v1/traces').map((request) => request.body),
    spans() {
      const spans: ReceivedSpan[] = [];
      for (const request of server.received) {
        if (request.path !== '/v1/traces') continue;
        const body = JSON.parse(request.body) as any;
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || null,
                name: span.name,
                kind: span.kind,
                attributes: Object.fromEntries(
                  (span.attributes ?? []).map((attribute: any) => [attribute.key, attributeValue(attribute.value)]),
                ),
                raw: span,
              });
            }
          }
        }
      }
      return spans;
    },
    close: () => server.close(),
  };
}
