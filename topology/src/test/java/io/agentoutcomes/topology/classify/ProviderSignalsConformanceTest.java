package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.ingest.AgentResultNormalizer;
import io.agentoutcomes.topology.ingest.RecordContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The provider-signals corpus ({@code provider-signals/corpus.json}): error bodies, statuses and rate-limit headers as
 * the providers document them, each reported by an agent in the flatagents dialect, ingested and classified by the
 * default policy as the pipeline does, with the decision each must get (code, retry or stop, wait or switch provider,
 * delay). Every case cites its source; a case the pipeline does not yet decide right says so in {@code pending} and is
 * skipped.
 */
class ProviderSignalsConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One case's decision, as the corpus writes its expectation. */
    record Decision(String code, String handling, String action, Long delayMs) {
        static Decision expected(JsonNode expect) {
            return new Decision(expect.get("code").asText(), expect.get("handling").asText(),
                    expect.has("action") ? expect.get("action").asText() : null,
                    expect.has("delay_ms") ? expect.get("delay_ms").asLong() : null);
        }

        static Decision of(ClassifiedOutcome outcome) {
            boolean retry = "RETRY".equals(outcome.getDecision().getHandling().name());
            return new Decision(outcome.getErrorCode(), outcome.getDecision().getHandling().name(),
                    retry ? outcome.getDecision().getAction().name() : null, retry ? outcome.getRetryDelayMs() : null);
        }
    }

    static JsonNode corpus() throws IOException {
        try (InputStream in = ProviderSignalsConformanceTest.class.getResourceAsStream("/provider-signals/corpus.json")) {
            return JSON.readTree(in);
        }
    }

    static Decision decide(JsonNode testCase, Instant now) throws IOException {
        RecordHeaders headers = new RecordHeaders();
        headers.add("agent-id", "agent".getBytes(StandardCharsets.UTF_8));
        AgentResult result = AgentResultNormalizer.normalize(JSON.writeValueAsBytes(testCase.get("result")),
                new RecordContext("task-" + testCase.get("id").asText(), headers, "agent-results-json", 0, 0, now));
        return Decision.of(Classification.classify(result, TaskAttempts.newBuilder().build(), RetryPolicy.defaults(), now,
                new Random(1)));
    }

    @TestFactory
    Stream<DynamicTest> everyCaseGetsTheDecisionItsProviderDocumentationCallsFor() throws IOException {
        JsonNode corpus = corpus();
        Instant now = Instant.parse(corpus.get("record_time").asText());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode testCase : corpus.get("cases")) {
            tests.add(DynamicTest.dynamicTest(testCase.get("id").asText(), () -> {
                // A case the pipeline does not decide right yet says why, and is skipped, not hidden.
                assumeTrue(!testCase.has("pending"), () -> testCase.get("pending").asText());
                assertThat(decide(testCase, now)).isEqualTo(Decision.expected(testCase.get("expect")));
            }));
        }
        return tests.stream();
    }

    @Test
    void theCorpusHasFiftyCasesFromNineProvidersEachWithItsSource() throws IOException {
        Map<String, Integer> perProvider = new LinkedHashMap<>();
        for (JsonNode testCase : corpus().get("cases")) {
            assertThat(testCase.get("source").asText()).as(testCase.get("id").asText()).isNotBlank();
            perProvider.merge(testCase.get("provider").asText(), 1, Integer::sum);
        }
        assertThat(perProvider.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(50);
        assertThat(perProvider).hasSizeGreaterThanOrEqualTo(9);
    }
}
