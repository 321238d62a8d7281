package io.agentoutcomes.topology.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.Test;

/** {@link OutputHeaders#copyWith}: in one pass, header for header what a copy, a put per name and the origin gave. */
class OutputHeadersCopyTest {
    private static final String[] NAMES = {HeaderNames.TASK_ID, HeaderNames.RESULT_ID, HeaderNames.ATTEMPT};
    private static final RecordMetadata SOURCE = new RecordMetadata() {
        @Override
        public String topic() {
            return "agent-results";
        }

        @Override
        public int partition() {
            return 2;
        }

        @Override
        public long offset() {
            return 41;
        }
    };

    private static Headers headers(String... nameValues) {
        Headers headers = new RecordHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.add(nameValues[i], nameValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static List<String> text(Headers headers) {
        List<String> all = new ArrayList<>();
        for (Header header : headers) {
            all.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        return all;
    }

    /** The steps copyWith stands for. */
    private static Headers stepByStep(Headers input, RecordMetadata source, String[] values) {
        Headers headers = OutputHeaders.copy(input);
        for (int i = 0; i < NAMES.length; i++) {
            OutputHeaders.put(headers, NAMES[i], values[i]);
        }
        return OutputHeaders.origin(headers, source);
    }

    @Test
    void theInputsHeadersAreKeptInOrderOursReplaceTheirNamesAndTheOriginIsAddedAfter() {
        Headers input = headers("traceparent", "00-ab-01", HeaderNames.TASK_ID, "forged", "tracestate", "v=1",
                HeaderNames.ATTEMPT, "9", HeaderNames.ATTEMPT, "8", HeaderNames.ORIGIN_OFFSET, "7");
        String[] values = {"task-1", "r-1", "2"};

        List<String> copied = text(OutputHeaders.copyWith(input, SOURCE, NAMES, values, true));

        assertThat(copied).containsExactly("traceparent=00-ab-01", "tracestate=v=1", "task-id=task-1", "result-id=r-1",
                "attempt=2", "origin-topic=agent-results", "origin-partition=2", "origin-offset=41");
        assertThat(copied).isEqualTo(text(stepByStep(input, SOURCE, values)));
        assertThat(text(input)).hasSize(6);
    }

    @Test
    void anInputWithItsOriginKeepsItAndANullValueRemovesItsName() {
        Headers input = headers(HeaderNames.ORIGIN_TOPIC, "node-finished", HeaderNames.RESULT_ID, "old",
                HeaderNames.ORIGIN_PARTITION, "0", HeaderNames.ORIGIN_OFFSET, "3");
        String[] values = {"task-1", null, "0"};

        List<String> copied = text(OutputHeaders.copyWith(input, SOURCE, NAMES, values, true));

        assertThat(copied).containsExactly("origin-topic=node-finished", "origin-partition=0", "origin-offset=3",
                "task-id=task-1", "attempt=0");
        assertThat(copied).isEqualTo(text(stepByStep(input, SOURCE, values)));
    }

    @Test
    void withoutInputHeadersOrSourceOnlyOursAreWritten() {
        String[] values = {"task-1", "r-1", "1"};

        assertThat(text(OutputHeaders.copyWith(null, null, NAMES, values, true)))
                .containsExactly("task-id=task-1", "result-id=r-1", "attempt=1")
                .isEqualTo(text(stepByStep(null, null, values)));
    }

    @Test
    void withoutOriginTheInputsOriginIsLeftOutAndNoneIsAdded() {
        Headers input = headers(HeaderNames.ORIGIN_TOPIC, "agent-results", "traceparent", "00-ab-01",
                HeaderNames.ORIGIN_PARTITION, "0", HeaderNames.ORIGIN_OFFSET, "3", HeaderNames.RESULT_ID, "r-0");
        String[] values = {"task-1", null, "1"};

        assertThat(text(OutputHeaders.copyWith(input, SOURCE, NAMES, values, false)))
                .containsExactly("traceparent=00-ab-01", "task-id=task-1", "attempt=1");
        assertThat(text(OutputHeaders.copyWith(null, SOURCE, NAMES, values, false)))
                .containsExactly("task-id=task-1", "attempt=1");
    }
}
