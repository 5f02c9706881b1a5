// Test support: the process's tracer provider for tests that run a real instrumented SDK. A NodeTracerProvider
// (a BasicTracerProvider that also registers the AsyncLocalStorage context manager): without a context manager,
// `startActiveSpan` and the instrumentations' spans never see their parent, and every model call is a trace of its own.
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

let registered: { provider: NodeTracerProvider; memory: InMemorySpanExporter } | null = null;

/** One tracer provider per process (the SDK's context manager is global); spans go to memory and to `extra`. */
export function tracerProvider(extra: SimpleSpanProcessor[] = []): {
  provider: NodeTracerProvider;
  memory: InMemorySpanExporter;
} {
  if (registered) return registered;
  const memory = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory), ...extra] });
  provider.register();
  registered = { provider, memory };
  return registered;
}
