import type { Logger } from 'pino';
import type { TracingSettings } from '../config.js';

export type SpanKindName = 'server' | 'client' | 'internal';
export type SpanAttributes = Record<string, string | number | boolean | string[]>;

/** One span, behind an interface of ours so that only this module loads OpenTelemetry. */
export interface SpanHandle {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed with the error's type (not its message: messages can carry request data). */
  fail(error: unknown): void;
  end(): void;
}

/**
 * Tracing as the rest of agentd sees it. Built only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; the OpenTelemetry packages are imported
 * here, on demand, so a server without it loads none of them and pays nothing.
 */
export interface Tracing {
  /** A span that is a child of the active one (the request's, when there is one). */
  startSpan(name: string, kind: SpanKindName, attributes: SpanAttributes): SpanHandle;
  /** Runs `work` with `span` active: spans started in it, and in what it awaits, are its children. */
  runWithin<T>(span: SpanHandle, work: () => T): T;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

export async function startTracing(settings: TracingSettings, logger: Logger): Promise<Tracing> {
  const [api, sdk, exporterModule, resources, conventions] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const exporter = new exporterModule.OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces` });
  const provider = new sdk.NodeTracerProvider({
    resource: resources.resourceFromAttributes({ [conventions.ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: settings.exportDelayMs })],
  });
  // Installs the AsyncLocalStorage context manager, which carries the active span across awaits.
  provider.register();
  const tracer = provider.getTracer('agentd');
  const kinds = { server: api.SpanKind.SERVER, client: api.SpanKind.CLIENT, internal: api.SpanKind.INTERNAL };
  const spans = new WeakMap<SpanHandle, import('@opentelemetry/api').Span>();
  logger.info({ endpoint: settings.endpoint }, 'sending traces with OTLP/HTTP');

  return {
    startSpan(name, kind, attributes) {
      const span = tracer.startSpan(name, { kind: kinds[kind], attributes });
      const handle: SpanHandle = {
        setAttributes: (more) => span.setAttributes(more),
        fail(error) {
          const type = error instanceof Error ? error.name : typeof error;
          span.setAttribute('error.type', type);
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        },
        end: () => span.end(),
      };
      spans.set(handle, span);
      return handle;
    },
    runWithin(handle, work) {
      const span = spans.get(handle);
      if (span === undefined) return work();
      return api.context.with(api.trace.setSpan(api.context.active(), span), work);
    },
    async shutdown() {
      await provider.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'flushing traces failed'));
    },
  };
}
