package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.agentResultRefusal;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.Dialect;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The dialects as a strategy: each recognises its shape, tried in the order of {@link AgentResultNormalizer#DIALECTS}
 * (docs/ingestion.md's table), the {@code dialect} header overrides the shape, and both refusals name the dialects
 * from that one list.
 */
class JsonDialectsTest {
    /** What the refusal of a record of no known shape expects, after its first words: every test quotes it from here. */
    static final String NO_SHAPE = " expected a review-agent result (status success/failure/skipped with agentId), "
            + "a vat-envelope result (status success/error/in-progress, or {result}) or a flatagents result "
            + "(output, usage, cost, error, ...)";

    private static JsonFields root(String json) {
        return new JsonFields(BoundedJson.parseObject(json.getBytes(StandardCharsets.UTF_8)), "");
    }

    @Test
    void theDialectsAreTriedSeed004ThenSeed000ThenSeed003() {
        assertThat(AgentResultNormalizer.DIALECTS).extracting(JsonDialect::id)
                .containsExactly(Dialect.REVIEW_AGENT, Dialect.VAT_ENVELOPE, Dialect.FLATAGENTS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "failure | {\"status\":\"failure\"} | REVIEW_AGENT",
        "skipped | {\"status\":\"skipped\"} | REVIEW_AGENT",
        "success with agentId | {\"status\":\"success\",\"agentId\":\"a\"} | REVIEW_AGENT",
        "success with findings | {\"status\":\"success\",\"findings\":[]} | REVIEW_AGENT",
        "success with metrics | {\"status\":\"success\",\"metrics\":{}} | REVIEW_AGENT",
        "bare success | {\"status\":\"success\"} | VAT_ENVELOPE",
        "error | {\"status\":\"error\"} | VAT_ENVELOPE",
        "in-progress | {\"status\":\"in-progress\"} | VAT_ENVELOPE",
        "a wrapped result | {\"result\":{\"status\":\"error\"}} | VAT_ENVELOPE",
        "output | {\"output\":1} | FLATAGENTS",
        "content | {\"content\":\"x\"} | FLATAGENTS",
        "error as null | {\"error\":null} | FLATAGENTS",
        "provider_data | {\"provider_data\":{}} | FLATAGENTS",
        "a result that is no envelope | {\"result\":{\"status\":\"done\"},\"usage\":{}} | FLATAGENTS",
    })
    void theFirstDialectWhoseShapeMatchesReadsTheRecord(String row, String json, Dialect expected) {
        JsonFields root = root(json);
        JsonDialect first = AgentResultNormalizer.DIALECTS.stream().filter(d -> d.detect(root)).findFirst().orElseThrow();

        assertThat(first.id()).isEqualTo(expected);
        assertThat(AgentResultNormalizer.dialectOf(root, new RecordContext("k", headers(), "t", 0, 0, null)))
                .isSameAs(first);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "no member of any shape | {\"foo\":1} | the record matches no known dialect:",
        "an unknown status | {\"status\":\"done\"} | the record matches no known dialect (status 'done'):",
        "a status that is no string | {\"status\":1} | the record matches no known dialect:",
        "a status beside seed 003 members | {\"status\":\"done\",\"output\":1} | the record matches no known dialect (status 'done'):",
    })
    void aRecordOfNoShapeIsRefusedNamingEveryShapeInOrder(String row, String json, String prefix) {
        assertThat(agentResultRefusal("task-1", json, headers("agent-id", "a-1")))
                .containsExactly("unknown-dialect", prefix + NO_SHAPE);
    }

    @Test
    void dialectHeaderOverridesTheShape() {
        assertThat(agentResult("task-1", "{\"status\":\"success\",\"agentId\":\"reviewer\",\"findings\":[]}",
                headers("agent-id", "a", "dialect", "vat-envelope")).getDialect()).isEqualTo(Dialect.VAT_ENVELOPE);
    }

    @Test
    void dialectHeaderIsReadInAnyCaseWithHyphensOrUnderscores() {
        assertThat(List.of(" Review-Agent ", "REVIEW_AGENT", "review-agent")).allSatisfy(name -> assertThat(
                agentResult("task-1", "{\"status\":\"skipped\",\"reason\":\"r\",\"metrics\":{\"durationMs\":1,"
                        + "\"filesProcessed\":0}}", headers("agent-id", "a", "dialect", name)).getDialect())
                .isEqualTo(Dialect.REVIEW_AGENT));
    }

    @ParameterizedTest
    @CsvSource({"seed-9", "native"})
    void aDialectHeaderNamingNoJsonDialectIsRefusedNamingTheList(String name) {
        assertThat(agentResultRefusal("task-1", "{\"status\":\"success\",\"data\":{\"ok\":true}}",
                headers("agent-id", "a", "dialect", name))).containsExactly("unknown-dialect", "dialect header '" + name
                + "' names no JSON dialect: expected one of review-agent, vat-envelope, flatagents");
    }
}
