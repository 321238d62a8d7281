package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.ResultType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One kind of hostile input: the records it sends and where they must come out. Every record carries the header
 * {@value #CASE_HEADER} with the case's name, which {@code rejected-input} keeps, so a rejected record is found by it
 * whatever its key or value; an outcome is found by its task id.
 *
 * @param name    what the case is, also the header value and part of its task ids
 * @param records what it sends, in order
 * @param expect  where they must land
 */
record HostileCase(String name, List<ProducerRecord<byte[], byte[]>> records, Expectation expect) {
    static final String CASE_HEADER = "hostile-case";

    HostileCase {
        records = List.copyOf(records);
        for (ProducerRecord<byte[], byte[]> record : records) {
            record.headers().add(CASE_HEADER, name.getBytes(StandardCharsets.UTF_8));
        }
    }

    static HostileCase of(String name, ProducerRecord<byte[], byte[]> record, Expectation expect) {
        return new HostileCase(name, List.of(record), expect);
    }

    /** The task id a case's records use, so their outcomes are found. */
    static String task(String name) {
        return "hostile-" + name;
    }

    /** Where a case's records must land. */
    sealed interface Expectation permits Rejected, DeadLettered, Classified, SkewedClockCase.Expected,
            OtlpHostileCases.RefusedBeside {
    }

    /**
     * Exactly one record per input on {@code rejected-input}, with the header {@code header} set to one of
     * {@code values} (JSON: {@code rejected.reason}; undecodable Avro: {@code __streams.errors.exception}; no values:
     * any), and no outcome.
     */
    record Rejected(int count, String header, Set<String> values) implements Expectation {
        static Rejected because(String... reasons) {
            return new Rejected(1, "rejected.reason", Set.of(reasons));
        }

        /** Without exceptions: any, as long as the header says one. */
        static Rejected undecodable(String... exceptions) {
            return new Rejected(1, "__streams.errors.exception", Set.of(exceptions));
        }
    }

    /**
     * Exactly one outcome on {@code dead-letter} for the task, whose reason, decision reason, rule or stop reason
     * mentions {@code reason} (null: any reason); never anything on {@code retry-ready} for it.
     */
    record DeadLettered(String task, String reason) implements Expectation {
    }

    /**
     * Exactly {@code count} classified outcomes for the task, each of {@code type}; with {@code consecutiveFailures},
     * their decisions' consecutive failure counts in that order (attempt counting across records). With
     * {@code completedNodes}, the job's replay state must list exactly those.
     */
    record Classified(String task, int count, ResultType type, List<Integer> consecutiveFailures, String job,
                      List<String> completedNodes) implements Expectation {
        static Classified as(String task, int count, ResultType type) {
            return new Classified(task, count, type, List.of(), null, List.of());
        }
    }

    /** Every name the corpus uses, checked for uniqueness. */
    static List<String> names(List<HostileCase> cases) {
        List<String> names = new ArrayList<>();
        cases.forEach(c -> names.add(c.name()));
        return names;
    }
}
