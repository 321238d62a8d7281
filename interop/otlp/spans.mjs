// Spans made by the OpenTelemetry JavaScript SDK, serialized by its own OTLP serializers (@opentelemetry/otlp-transformer)
// as a Node.js agent's exporter sends them: <out>/spans.pb (ExportTraceServiceRequest, otlp_proto) and <out>/spans.json
// (OTLP/JSON). Prints the spans' ids, for the test to expect exact results.
import { writeFileSync } from 'node:fs';
import { context, SpanStatusCode, SpanKind, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

const out = process.argv[2];
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'node-support-bot' }),
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});
const tracer = provider.getTracer('agent-outcomes-interop');
const t0 = Date.parse('2026-03-01T12:00:00Z');

const agent = tracer.startSpan('invoke_agent node-support-bot', { kind: SpanKind.INTERNAL, startTime: t0, attributes: {
  'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.id': 'node-support-bot', 'gen_ai.provider.name': 'openai' } });
const parent = trace.setSpan(context.active(), agent);
const chat = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: t0 + 10, attributes: {
  'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini',
  'gen_ai.usage.input_tokens': 1500, 'gen_ai.usage.output_tokens': 120, 'gen_ai.usage.cache_read.input_tokens': 500 } }, parent);
chat.end(t0 + 810);
const limited = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: t0 + 900, attributes: {
  'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini',
  'error.type': '429' } }, parent);
limited.setStatus({ code: SpanStatusCode.ERROR, message: 'Rate limit reached' });
limited.end(t0 + 950);
agent.end(t0 + 1000);

const spans = exporter.getFinishedSpans();
writeFileSync(`${out}/spans.pb`, ProtobufTraceSerializer.serializeRequest(spans));
writeFileSync(`${out}/spans.json`, JsonTraceSerializer.serializeRequest(spans));
console.log(JSON.stringify(spans.map(s => ({ name: s.name, traceId: s.spanContext().traceId, spanId: s.spanContext().spanId,
  flags: s.spanContext().traceFlags }))));
await provider.shutdown();
