package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/classification.md's table of error codes is generated from {@link ErrorCode}: a new code is one entry there. */
class ErrorCodeTableTest {
    private static final Path CLASSIFICATION = Path.of("..", "docs", "classification.md");
    private static final String BEGIN = "<!-- error-codes:begin (generated from ErrorCode by ErrorCodeTableTest) -->\n";
    private static final String END = "<!-- error-codes:end -->";

    @Test
    void theCommittedErrorCodeTableIsTheOneGeneratedFromTheEnum() throws IOException {
        String committed = Files.readString(CLASSIFICATION);
        String generated = committed.substring(0, committed.indexOf(BEGIN) + BEGIN.length()) + markdown()
                + committed.substring(committed.indexOf(END));
        if (Boolean.getBoolean("error.codes.table.write")) {
            Files.writeString(CLASSIFICATION, generated);
            committed = generated;
        }

        assertThat(committed).as("docs/classification.md's error-code table drifted from ErrorCode: rewrite it with "
                + "./mvnw -B -pl topology -am test -Dtest=ErrorCodeTableTest -Dsurefire.failIfNoSpecifiedTests=false "
                + "-Derror.codes.table.write=true").isEqualTo(generated);
    }

    static String markdown() {
        StringBuilder table = new StringBuilder()
                .append("| canonical code | category | by default | backoff base | also reported as (code; HTTP status) |\n")
                .append("|---|---|---|---|---|\n");
        for (ErrorCode code : ErrorCode.values()) {
            table.append(row("`" + code.value() + "`", category(code), retryability(code), seconds(code.backoffBase()),
                    reportedAs(code)));
        }
        return table.toString();
    }

    private static String row(String... cells) {
        return Arrays.stream(cells).map(cell -> cell.isEmpty() ? " " : " " + cell + " ")
                .collect(Collectors.joining("|", "|", "|\n"));
    }

    private static String retryability(ErrorCode code) {
        return switch (code.retryability()) {
            case RETRYABLE -> "retryable";
            case NON_RETRYABLE -> "non-retryable";
            case NOT_LISTED -> "not listed";
        };
    }

    private static String category(ErrorCode code) {
        String category = ErrorPolicy.label(code.category());
        return code == ErrorCode.UNKNOWN ? category + " (or the producer's `error.category`)" : category;
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static String reportedAs(ErrorCode code) {
        if (code == ErrorCode.UNKNOWN) {
            return "anything else";
        }
        List<String> parts = new ArrayList<>();
        if (!code.reportedAs().isEmpty()) {
            parts.add(code.reportedAs().stream().map(value -> "`" + value + "`").collect(Collectors.joining(", ")));
        }
        List<String> statuses = code.httpStatuses().stream().map(String::valueOf).collect(Collectors.toList());
        if (code == ErrorCodes.SERVER_ERROR) {
            statuses.add("other 5xx");
        }
        if (!statuses.isEmpty()) {
            parts.add(String.join(", ", statuses));
        }
        return String.join("; ", parts);
    }
}
