package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.redrive.Redrive;
import io.agentoutcomes.app.redrive.RedriveFilter;
import io.agentoutcomes.app.redrive.RedriveReport;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.DeadLetterRedrive;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.topic.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Dead letters redriven on a real broker (issue 22 item 4): tasks stopped by the running pipeline, a dry run that
 * counts them, a filtered redrive that re-issues each once to retry-ready with a fresh attempt budget and records it on
 * redrives, a second run that re-issues nothing, and the re-run's result carrying the redrive id starting afresh.
 */
class RedriveTest extends ServiceOnTestBroker {
    /** The redrives' clock, fixed, and near the wall clock's: records far in the past would be deleted by retention. */
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    /** Stops four tasks at once (non-retryable errors), of agents a and b, and returns their dead letters by task. */
    private Map<String, ConsumerRecord<String, ClassifiedOutcome>> stopFourTasks(AppConfig config, AgentOutcomesService service)
            throws Exception {
        String topic = config.topicPrefix() + "agent-results-json";
        long time = System.currentTimeMillis();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                new StringSerializer())) {
            producer.send(json(topic, "task-1", time, "{\"status\":\"error\",\"error\":\"llm-refusal\"}",
                    "agent-id", "agent-a", "result-id", "task-1/0", "traceparent", traceparent(1)));
            producer.send(json(topic, "task-2", time, "{\"status\":\"error\",\"error\":\"auth-failed\"}",
                    "agent-id", "agent-a", "result-id", "task-2/0"));
            producer.send(json(topic, "task-3", time, "{\"status\":\"error\",\"error\":\"llm-refusal\"}",
                    "agent-id", "agent-b", "result-id", "task-3/0"));
            producer.send(json(topic, "task-4", time, "{\"status\":\"error\",\"error\":\"llm-refusal\"}",
                    "agent-id", "agent-a", "result-id", "task-4/0"));
        }
        return readAll(config.topicPrefix() + "dead-letter", 4, deserializer(service, ClassifiedOutcome.class)).stream()
                .collect(Collectors.toMap(ConsumerRecord::key, Function.identity()));
    }

    private static <V extends SpecificRecord> Deserializer<V> deserializer(
            AgentOutcomesService service, Class<V> type) {
        return AvroSerde.specific(type).configured(service.registryClientSettings(), false)
                .deserializer();
    }

    private static Redrive redrive(AppConfig config, AgentOutcomesService service, Instant now) {
        Map<String, Object> serde = new HashMap<>(service.clientConfig());
        serde.putAll(service.registryClientSettings());
        return new Redrive(service.clientConfig(), new Topics(config.topicPrefix(), serde,
                config.pipeline().retry().tiers().names()), config.applicationId(), Clock.fixed(now, ZoneOffset.UTC));
    }

    /** Every committed record of {@code topic} now, in offset order per partition. */
    private static <V> List<ConsumerRecord<String, V>> everything(String topic, Deserializer<V> values) {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, V>> records = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(config, new StringDeserializer(), values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        records.sort(Comparator.comparing(ConsumerRecord<String, V>::key));
        return records;
    }

    @Test
    void aDryRunCountsAndWritesNothingARedriveReissuesEachSelectedDeadLetterOnceAndAFreshBudgetFollows() throws Exception {
        AppConfig config = config("redrive");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, ConsumerRecord<String, ClassifiedOutcome>> deadLetters = stopFourTasks(config, service);
            String retryReady = config.topicPrefix() + "retry-ready";
            String redrives = config.topicPrefix() + "redrives";
            RedriveFilter refusalsOfA = RedriveFilter.parse("llm-refusal", "agent-a", null, "ERROR", null, null);

            StringWriter dryRunOutput = new StringWriter();
            int exit = Main.commandLine().setOut(new PrintWriter(dryRunOutput)).execute("redrive", "--dry-run",
                    "--bootstrap-servers", kafka.bootstrapServers(), "--schema-registry-url", service.schemaRegistryUrl(),
                    "--topic-prefix", config.topicPrefix(), "--error-code", "llm-refusal", "--agent", "agent-a");
            assertThat(exit).isZero();
            assertThat(dryRunOutput.toString()).startsWith("Dry run (nothing written): errorCode=llm-refusal agent=agent-a\n"
                    + "  dead letters read     4\n  matching the filters  2\n  already redriven      0 (skipped)\n"
                    + "  selected              2\n  retries to re-issue  2 to retry-ready\n");
            assertThat(everything(retryReady, deserializer(service, RetryRequest.class))).isEmpty();
            assertThat(everything(redrives, deserializer(service, DeadLetterRedrive.class))).isEmpty();

            RedriveReport report = redrive(config, service, NOW).run(refusalsOfA, false, Redrive.DEFAULT_LIMIT, "ops");
            String id = report.redriveId();
            assertThat(report).isEqualTo(new RedriveReport(id, false,
                    "errorCode=llm-refusal agent=agent-a stopReason=ERROR", 4, 2, 0, 2, 2, 0, 0, report.examples()));
            assertThat(report.examples()).extracting(RedriveReport.Example::taskId).containsExactlyInAnyOrder("task-1", "task-4");

            List<ConsumerRecord<String, RetryRequest>> retries = everything(retryReady, deserializer(service, RetryRequest.class));
            assertThat(retries).extracting(ConsumerRecord::key).containsExactly("task-1", "task-4");
            for (ConsumerRecord<String, RetryRequest> retry : retries) {
                ConsumerRecord<String, ClassifiedOutcome> deadLetter = deadLetters.get(retry.key());
                ClassifiedOutcome stopped = deadLetter.value();
                assertThat(retry.value()).isEqualTo(RetryRequest.newBuilder().setTaskId(retry.key())
                        .setResultId(stopped.getResultId()).setAgentId("agent-a").setNextAttempt(0)
                        .setErrorCode("llm-refusal").setDelayMs(0L).setDelayReason("redrive " + id).setTier("redrive")
                        .setFailedAt(stopped.getClassifiedAt()).setDueAt(NOW.toEpochMilli())
                        .setReason("Redriven (redrive " + id + ") after: " + stopped.getDecision().getReason())
                        .setAction(RetryAction.WAIT).setAgentResult(stopped.getAgentResult()).build());
                String from = deadLetter.topic() + "/" + deadLetter.partition() + "/" + deadLetter.offset();
                Map<String, String> expected = new HashMap<>(headers(deadLetter));
                expected.putAll(Map.of(HeaderNames.ATTEMPT, "0", HeaderNames.DUE_AT, NOW.toString(),
                        HeaderNames.REDRIVE_ID, id, HeaderNames.REDRIVEN_FROM, from));
                assertThat(headers(retry)).isEqualTo(expected);
                assertThat(headers(retry)).containsEntry(HeaderNames.RESULT_ID, retry.key() + "/0")
                        .containsEntry(HeaderNames.AGENT_ID, "agent-a");
            }
            assertThat(headers(retries.get(0))).containsEntry("traceparent", traceparent(1));

            List<ConsumerRecord<String, DeadLetterRedrive>> recorded = everything(redrives, deserializer(service, DeadLetterRedrive.class));
            assertThat(recorded).extracting(record -> record.value().getTaskId()).containsExactlyInAnyOrder("task-1", "task-4");
            for (ConsumerRecord<String, DeadLetterRedrive> record : recorded) {
                ConsumerRecord<String, ClassifiedOutcome> deadLetter = deadLetters.get(record.value().getTaskId());
                assertThat(record.key()).isEqualTo(deadLetter.topic() + "/" + deadLetter.partition() + "/" + deadLetter.offset());
                assertThat(record.value()).isEqualTo(DeadLetterRedrive.newBuilder().setRedriveId(id)
                        .setTaskId(deadLetter.key()).setResultId(deadLetter.key() + "/0").setAgentId("agent-a")
                        .setErrorCode("llm-refusal").setStopReason(StopReason.ERROR).setDeadLetterTopic(deadLetter.topic())
                        .setDeadLetterPartition(deadLetter.partition()).setDeadLetterOffset(deadLetter.offset())
                        .setReissued(true).setSupersededBy(null).setRequestedBy("ops").setRedrivenAt(NOW.toEpochMilli())
                        .setSelection("errorCode=llm-refusal agent=agent-a stopReason=ERROR").build());
            }

            // Again, and again with every dead letter selected: the two already redriven are skipped.
            RedriveReport again = redrive(config, service, NOW.plusSeconds(60)).run(refusalsOfA, false, 100, "ops");
            assertThat(again).isEqualTo(new RedriveReport(again.redriveId(), false,
                    "errorCode=llm-refusal agent=agent-a stopReason=ERROR", 4, 2, 2, 0, 0, 0, 0, List.of()));
            RedriveReport all = redrive(config, service, NOW).run(RedriveFilter.any(), true, 100, "ops");
            assertThat(all).isEqualTo(new RedriveReport(null, true, "(all)", 4, 4, 2, 2, 2, 0, 0, all.examples()));
            assertThat(everything(retryReady, deserializer(service, RetryRequest.class))).hasSize(2);
            assertThat(everything(redrives, deserializer(service, DeadLetterRedrive.class))).hasSize(2);

            // The orchestrator re-runs task-1 with the redrive id: it fails again, retryable, and gets a fresh budget;
            // task-3, stopped and not redriven, stops again.
            long time = System.currentTimeMillis();
            String input = config.topicPrefix() + "agent-results-json";
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                producer.send(json(input, "task-1", time, "{\"status\":\"error\",\"error\":\"llm-timeout\"}",
                        "agent-id", "agent-a", "result-id", "task-1/redriven/0", "attempt", "0", HeaderNames.REDRIVE_ID, id));
                producer.send(json(input, "task-3", time, "{\"status\":\"error\",\"error\":\"llm-timeout\"}",
                        "agent-id", "agent-b", "result-id", "task-3/1", "attempt", "1"));
            }
            List<ConsumerRecord<String, ClassifiedOutcome>> outcomes = new ArrayList<>();
            waitForCondition(() -> {
                outcomes.clear();
                outcomes.addAll(everything(config.topicPrefix() + "outcomes-classified",
                        deserializer(service, ClassifiedOutcome.class)));
                return outcomes.size() == 6;
            }, 30_000, () -> "6 outcomes, " + outcomes.size());
            Map<String, ClassifiedOutcome> rerun = outcomes.stream().map(ConsumerRecord::value)
                    .filter(o -> o.getErrorCode().equals("llm-timeout"))
                    .collect(Collectors.toMap(ClassifiedOutcome::getTaskId, Function.identity()));
            assertThat(rerun.get("task-1").getAttempt()).isZero();
            assertThat(rerun.get("task-1").getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
            assertThat(rerun.get("task-1").getDecision().getConsecutiveFailures()).isEqualTo(1);
            assertThat(rerun.get("task-3").getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
            assertThat(rerun.get("task-3").getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
        }
    }

    @Test
    void ofTwoDeadLettersOfOneTaskTheLatestIsReissuedAndTheLimitLeavesTheRestForTheNextRun() throws Exception {
        AppConfig config = config("redrive-limit");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            stopFourTasks(config, service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                producer.send(json(config.topicPrefix() + "agent-results-json", "task-2", System.currentTimeMillis(),
                        "{\"status\":\"error\",\"error\":\"auth-failed\"}", "agent-id", "agent-a", "result-id", "task-2/1"));
            }
            readAll(config.topicPrefix() + "dead-letter", 5, deserializer(service, ClassifiedOutcome.class));
            Redrive redrive = redrive(config, service, NOW);

            RedriveReport authFailures = redrive.run(RedriveFilter.parse("auth-failed", null, null, null, null, null), false,
                    100, "ops");
            assertThat(authFailures).isEqualTo(new RedriveReport(authFailures.redriveId(), false, "errorCode=auth-failed",
                    5, 2, 0, 2, 1, 1, 0, authFailures.examples()));
            List<ConsumerRecord<String, RetryRequest>> retries = everything(config.topicPrefix() + "retry-ready",
                    deserializer(service, RetryRequest.class));
            assertThat(retries).extracting(r -> r.value().getResultId()).containsExactly("task-2/1");
            assertThat(everything(config.topicPrefix() + "redrives", deserializer(service, DeadLetterRedrive.class)))
                    .extracting(r -> r.value().getResultId(), r -> r.value().getReissued(), r -> r.value().getSupersededBy())
                    .containsExactlyInAnyOrder(Tuple.tuple("task-2/0", false, "task-2/1"), Tuple.tuple("task-2/1", true, null));

            RedriveReport first = redrive.run(RedriveFilter.any(), false, 1, "ops");
            assertThat(first).isEqualTo(new RedriveReport(first.redriveId(), false, "(all)", 5, 5, 2, 1, 1, 0, 2,
                    first.examples()));
            RedriveReport rest = redrive.run(RedriveFilter.any(), false, 10, "ops");
            assertThat(rest).isEqualTo(new RedriveReport(rest.redriveId(), false, "(all)", 5, 5, 3, 2, 2, 0, 0,
                    rest.examples()));
            assertThat(everything(config.topicPrefix() + "retry-ready", deserializer(service, RetryRequest.class)))
                    .extracting(ConsumerRecord::key).containsExactly("task-1", "task-2", "task-3", "task-4");
        }
    }

    @Test
    void postRedriveIsADryRunUnlessAskedOtherwiseAndRefusesBadRequests() throws Exception {
        AppConfig config = config("redrive-http");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            stopFourTasks(config, service);
            HttpClient http = HttpClient.newHttpClient();
            Function<String, HttpResponse<String>> post = body -> {
                try {
                    return http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + "/redrive"))
                            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(), HttpResponse.BodyHandlers.ofString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };

            HttpResponse<String> dryRun = post.apply("{\"agent\":\"agent-b\"}");
            assertThat(dryRun.statusCode()).isEqualTo(200);
            assertThat(dryRun.body()).startsWith("{\"redriveId\":null,\"dryRun\":true,\"selection\":\"agent=agent-b\","
                    + "\"scanned\":4,\"matched\":1,\"alreadyRedriven\":0,\"selected\":1,\"retries\":1,\"superseded\":0,"
                    + "\"leftOver\":0,\"examples\":[{\"taskId\":\"task-3\",\"resultId\":\"task-3/0\",\"agentId\":\"agent-b\","
                    + "\"errorCode\":\"llm-refusal\",\"stopReason\":\"ERROR\",");

            HttpResponse<String> done = post.apply("{\"agent\":\"agent-b\",\"dryRun\":false}");
            assertThat(done.statusCode()).isEqualTo(200);
            assertThat(done.body()).contains("\"dryRun\":false,\"selection\":\"agent=agent-b\",\"scanned\":4,\"matched\":1,"
                    + "\"alreadyRedriven\":0,\"selected\":1,\"retries\":1,");
            HttpResponse<String> twice = post.apply("{\"agent\":\"agent-b\",\"dryRun\":false}");
            assertThat(twice.body()).contains("\"matched\":1,\"alreadyRedriven\":1,\"selected\":0,\"retries\":0,");
            assertThat(everything(config.topicPrefix() + "retry-ready", deserializer(service, RetryRequest.class)))
                    .extracting(ConsumerRecord::key).containsExactly("task-3");

            assertThat(post.apply("{\"stopReason\":\"TIRED\"}").body()).isEqualTo("{\"error\":\"bad request\",\"detail\":"
                    + "\"stop reason 'TIRED' is not one of [COMPLETED, STEPS_LIMIT, TOKEN_LIMIT, TIME_LIMIT, RETRY_LIMIT, "
                    + "ERROR, FINISH_REASON, GUARD, USER_REQUESTED, BUDGET_EXCEEDED, RETRY_BUDGET_EXHAUSTED]\"}");
            assertThat(post.apply("{\"from\":\"yesterday\"}").statusCode()).isEqualTo(400);
            assertThat(post.apply("{\"dry_run\":false}").body()).startsWith("{\"error\":\"bad request\",\"detail\":\"unknown field 'dry_run'");
            assertThat(post.apply("{\"limit\":0}").statusCode()).isEqualTo(400);
            assertThat(post.apply("{\"agent\":\"" + "x".repeat(5000) + "\"}").statusCode()).isEqualTo(413);
            HttpResponse<String> form = http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + "/redrive"))
                    .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{\"dryRun\":false}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(form.statusCode()).isEqualTo(415);
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + "/redrive")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(405);
        }
    }
}
