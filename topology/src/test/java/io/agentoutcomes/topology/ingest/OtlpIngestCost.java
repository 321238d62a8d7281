package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.topology.ingest.OtelSdkSpans.Encoding;
import io.opentelemetry.api.trace.SpanKind;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What the OTLP dialect costs, in µs per span: a request of 100 SDK-made model-call spans (a Collector batch) decoded
 * and every span mapped and bounded, in each encoding (not a test: a loop in a main, run by hand; see
 * docs/ingestion.md for the command and the figures).
 */
public final class OtlpIngestCost {
    private static final int SPANS = 100;
    private static final int REQUESTS = 3_000;

    private OtlpIngestCost() {
    }

    public static void main(String[] args) {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        try (OtelSdkSpans sdk = new OtelSdkSpans("billing-bot")) {
            for (Encoding encoding : Encoding.values()) {
                for (int i = 0; i < SPANS; i++) {
                    sdk.span("chat gpt-4o-mini", SpanKind.CLIENT, null, t0, t0.plusMillis(800), Map.of(
                            "gen_ai.operation.name", "chat", "gen_ai.provider.name", "openai",
                            "gen_ai.request.model", "gpt-4o-mini", "gen_ai.response.model", "gpt-4o-mini-2024-07-18",
                            "gen_ai.response.id", "chatcmpl-" + i, "gen_ai.usage.input_tokens", 1200L,
                            "gen_ai.usage.output_tokens", 150L, "gen_ai.usage.cache_read.input_tokens", 400L,
                            "server.address", "api.openai.com", "gen_ai.response.finish_reasons", "stop"));
                }
                byte[] request = sdk.request(encoding);
                RecordContext context = new RecordContext(null, new RecordHeaders(), "otlp_spans", 0, 0, t0);
                for (int round = 0; round < 3; round++) {
                    long mapped = 0;
                    long start = System.nanoTime();
                    for (int r = 0; r < REQUESTS; r++) {
                        List<OtlpSpan> spans = OtlpRequests.read(request);
                        for (OtlpSpan span : spans) {
                            AgentResult result = OtlpDialect.map(span, context);
                            InputBounds.check(result);
                            mapped++;
                        }
                    }
                    double micros = (System.nanoTime() - start) / 1_000.0 / mapped;
                    System.out.printf(Locale.ROOT, "%s, %d bytes per request of %d spans, round %d: %.2f µs per span%n",
                            encoding, request.length, SPANS, round, micros);
                }
            }
        }
    }
}
