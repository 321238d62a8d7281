package io.agentoutcomes.client;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The retry consumer against a real broker, with retries written as the pipeline's scheduler writes them. */
class RetryConsumerTest {
    private static final String REGISTRY = "mock://retry-consumer-test";
    private static final Map<String, Object> SERDE = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY);
    @RegisterExtension
    static final TestBroker broker = new TestBroker();
    private static int tests;
    /** Each test has topics of its own, under a prefix, on the one broker. */
    private String prefix;

    @BeforeEach
    void createTopics() throws Exception {
        prefix = "test" + (++tests) + ".";
        broker.createTopics(1, prefix + TopicNames.RETRY_READY, prefix + TopicNames.DEAD_LETTER);
    }

    @Test
    void handsOverEachDueRetryOnceCommitsAfterTheCallbackAndSkipsARedelivery() throws Exception {
        Instant due = Instant.now().minusSeconds(1);
        produce(false, retry("task-1", "task-1/0", 1, due, RetryAction.WAIT),
                retry("task-2", "task-2/0", 1, due, RetryAction.SWITCH_PROVIDER),
                retry("task-1", "task-1/0", 1, due, RetryAction.WAIT));  // the same retry again

        List<DueRetry> seen = new CopyOnWriteArrayList<>();
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "orchestrator", seen::add,
                RetryConsumer.Options.DEFAULT).start()) {
            waitForCondition(() -> consumer.retriesHandled() + consumer.duplicatesSkipped() == 3, 20_000,
                    "condition not met in 20 s");
            assertThat(seen).extracting(DueRetry::taskId, DueRetry::nextAttempt, DueRetry::action, DueRetry::provider)
                    .containsExactly(Tuple.tuple("task-1", 1, RetryAction.WAIT, "openai"),
                            Tuple.tuple("task-2", 1, RetryAction.SWITCH_PROVIDER, "openai"));
            assertThat(seen).allSatisfy(r -> assertThat(r.early()).isFalse());
            assertThat(consumer.duplicatesSkipped()).isEqualTo(1);
            waitForCondition(() -> committed("orchestrator") == 3, 20_000, "condition not met in 20 s");
        }
    }

    @Test
    void aRedrivenRetryIsHandedOverWithItsRedriveIdThoughItsFailedResultIdWasHandledBeforeOncePerRedrive() throws Exception {
        Instant due = Instant.now().minusSeconds(1);
        produce(false, retry("task-1", "task-1/0", 1, due, RetryAction.WAIT));
        RetryRequest redriven = retry("task-1", "task-1/0", 0, due, RetryAction.WAIT);
        produce(false, "redrive-1", redriven, redriven);
        produce(false, "redrive-2", redriven);

        List<DueRetry> seen = new CopyOnWriteArrayList<>();
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "orchestrator", seen::add,
                RetryConsumer.Options.DEFAULT).start()) {
            waitForCondition(() -> consumer.retriesHandled() + consumer.duplicatesSkipped() == 4, 20_000,
                    "condition not met in 20 s");
            assertThat(seen).extracting(DueRetry::nextAttempt, DueRetry::redriveId, DueRetry::redriven)
                    .containsExactly(Tuple.tuple(1, null, false), Tuple.tuple(0, "redrive-1", true),
                            Tuple.tuple(0, "redrive-2", true));
            assertThat(consumer.duplicatesSkipped()).isEqualTo(1);
        }
    }

    @Test
    void aCallbackThatThrowsIsCalledAgainForTheSameRecordAndNothingAfterItIsCommittedFirst() throws Exception {
        Instant due = Instant.now().minusSeconds(1);
        produce(false, retry("task-a", "task-a/0", 1, due, RetryAction.WAIT),
                retry("task-b", "task-b/0", 1, due, RetryAction.WAIT));
        AtomicBoolean failedOnce = new AtomicBoolean();
        List<String> calls = new CopyOnWriteArrayList<>();
        RetryHandler flaky = retry -> {
            calls.add(retry.taskId());
            if (retry.taskId().equals("task-a") && failedOnce.compareAndSet(false, true)) {
                throw new IllegalStateException("orchestrator busy");
            }
        };
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "flaky", flaky,
                new RetryConsumer.Options(false, 1000, Duration.ofMillis(100), Duration.ofSeconds(1))).start()) {
            waitForCondition(() -> consumer.retriesHandled() == 2, 20_000, "condition not met in 20 s");
            assertThat(calls).containsExactly("task-a", "task-a", "task-b");
            assertThat(consumer.handlerFailures()).isEqualTo(1);
            waitForCondition(() -> committed("flaky") == 2, 20_000, "condition not met in 20 s");
        }
    }

    @Test
    void readsOnlyCommittedRetriesAndDeadLettersWhenAsked() throws Exception {
        Instant due = Instant.now().minusSeconds(1);
        produce(true, retry("task-aborted", "task-aborted/0", 1, due, RetryAction.WAIT));
        produce(false, retry("task-ok", "task-ok/0", 1, due, RetryAction.WAIT));
        ClassifiedOutcome stopped = ClassifiedOutcome.newBuilder().setTaskId("task-dead").setResultId("task-dead/4")
                .setAttempt(4).setResultType(ResultType.RETRYABLE_FAILURE).setReason("retry limit")
                .setClassifiedAt(Instant.now().toEpochMilli()).build();
        Serializer<ClassifiedOutcome> outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(SERDE, false).serializer();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                broker.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(prefix + TopicNames.DEAD_LETTER, "task-dead", outcomes.serialize(prefix + TopicNames.DEAD_LETTER, stopped))).get();
        }
        List<String> retries = new CopyOnWriteArrayList<>();
        List<String> dead = new CopyOnWriteArrayList<>();
        RetryHandler handler = new RetryHandler() {
            @Override
            public void onRetry(DueRetry retry) {
                retries.add(retry.taskId());
            }

            @Override
            public void onDeadLetter(ClassifiedOutcome outcome) {
                dead.add(outcome.getTaskId());
            }
        };
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "with-dead", handler,
                RetryConsumer.Options.DEFAULT.withDeadLetters(true)).start()) {
            waitForCondition(() -> consumer.retriesHandled() == 1 && consumer.deadLettersHandled() == 1, 20_000,
                    "condition not met in 20 s");
            Thread.sleep(500);
            assertThat(retries).containsExactly("task-ok");
            assertThat(dead).containsExactly("task-dead");
        }
    }

    @Test
    void aRetryOnAFallbackModelSaysWhichModelToReRunItOnAndWhy() throws Exception {
        Instant due = Instant.now().minusSeconds(1);
        RetryRequest diverted = retry("task-f", "task-f/0", 1, due, RetryAction.WAIT);
        diverted.setFallbackProvider("anthropic");
        diverted.setFallbackModel("claude-sonnet-4");
        diverted.setFallbackCause(FallbackCause.CIRCUIT_OPEN);
        diverted.setFallbackReason("circuit open on openai/gpt-4o-mini: re-run on anthropic/claude-sonnet-4 "
                + "(fallback.openai/gpt-4o-mini=anthropic/claude-sonnet-4)");
        produce(false, diverted, retry("task-w", "task-w/0", 1, due, RetryAction.WAIT));
        List<DueRetry> seen = new CopyOnWriteArrayList<>();
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "fallbacks", seen::add, RetryConsumer.Options.DEFAULT).start()) {
            waitForCondition(() -> consumer.retriesHandled() == 2, 20_000, "condition not met in 20 s");
        }

        assertThat(seen).extracting(DueRetry::taskId, DueRetry::fallback, DueRetry::runOnProvider, DueRetry::runOnModel,
                DueRetry::fallbackCause, DueRetry::model).containsExactly(
                Tuple.tuple("task-f", true, "anthropic", "claude-sonnet-4", FallbackCause.CIRCUIT_OPEN, "gpt-4o-mini"),
                Tuple.tuple("task-w", false, "openai", "gpt-4o-mini", null, "gpt-4o-mini"));
        assertThat(seen.get(0).fallbackReason()).isEqualTo("circuit open on openai/gpt-4o-mini: re-run on "
                + "anthropic/claude-sonnet-4 (fallback.openai/gpt-4o-mini=anthropic/claude-sonnet-4)");
    }

    @Test
    void aRetryReadBeforeItsDueTimeIsHeldUntilDue() throws Exception {
        Instant due = Instant.now().plusMillis(1500).truncatedTo(ChronoUnit.MILLIS);
        produce(false, retry("task-early", "task-early/0", 1, due, RetryAction.WAIT));
        List<Instant> handledAt = new CopyOnWriteArrayList<>();
        List<DueRetry> seen = new CopyOnWriteArrayList<>();
        try (RetryConsumer consumer = RetryConsumer.create(settings(), "early", r -> {
            handledAt.add(Instant.now());
            seen.add(r);
        }, RetryConsumer.Options.DEFAULT).start()) {
            waitForCondition(() -> consumer.retriesHandled() == 1, 20_000, "condition not met in 20 s");
        }
        assertThat(seen.get(0).early()).isTrue();
        assertThat(handledAt.get(0)).isAfterOrEqualTo(due);
    }

    private Map<String, Object> settings() {
        return Map.of("bootstrap.servers", broker.bootstrapServers(), AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY,
                OutcomePublisher.TOPIC_PREFIX, prefix);
    }

    private static RetryRequest retry(String task, String failedResultId, int nextAttempt, Instant due, RetryAction action) {
        return RetryRequest.newBuilder().setTaskId(task).setResultId(failedResultId).setAgentId("planner")
                .setNextAttempt(nextAttempt).setErrorCode("llm-timeout").setDelayMs(1000).setDelayReason("backoff 1000 ms x 2^0")
                .setTier("1s").setFailedAt(due.minusSeconds(1).toEpochMilli()).setDueAt(due.toEpochMilli()).setReason("Timeout error, retrying (1/5)")
                .setAction(action)
                .setAgentResult(ResultBuilder.of("planner", task).model("openai", "gpt-4o-mini").error("llm-timeout", "slow"))
                .build();
    }

    /** Writes retries in one transaction, committed or aborted. */
    private void produce(boolean abort, RetryRequest... retries) throws Exception {
        produce(abort, null, retries);
    }

    /** Writes retries in one transaction, committed or aborted, with the redrive id a redrive gives them (or none). */
    private void produce(boolean abort, String redriveId, RetryRequest... retries) throws Exception {
        Serializer<RetryRequest> serializer = AvroSerde.specific(RetryRequest.class).configured(SERDE, false).serializer();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                broker.bootstrapServers(), "transactional.id", "scheduler-" + System.nanoTime()), new StringSerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (RetryRequest retry : retries) {
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(prefix + TopicNames.RETRY_READY,
                        retry.getTaskId(), serializer.serialize(prefix + TopicNames.RETRY_READY, retry));
                if (redriveId != null) {
                    record.headers().add(HeaderNames.REDRIVE_ID, redriveId.getBytes(StandardCharsets.UTF_8));
                }
                producer.send(record);
            }
            if (abort) {
                producer.abortTransaction();
            } else {
                producer.commitTransaction();
            }
        }
    }

    /** The group's committed offset on retry-ready: the offset after the last record handled. */
    private long committed(String group) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                    .get(new TopicPartition(prefix + TopicNames.RETRY_READY, 0));
            return offset == null ? -1 : offset.offset();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
