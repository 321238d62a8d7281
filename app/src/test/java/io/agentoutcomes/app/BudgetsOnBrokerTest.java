package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Budgets on a real broker, exactly-once: a budget of $1 a day per agent (two agents standing for two tenants) crossed
 * at 50, 80 and 100 %: three alerts per agent on {@code budget-alerts} (read_committed), counted on /metrics and shown
 * by {@code GET /budgets}; then a failure of an exhausted agent is dead-lettered with {@code budget_exceeded} while a
 * third agent's failure is retried.
 */
class BudgetsOnBrokerTest extends ServiceOnTestBroker {

    @Test
    void twoAgentsCrossingTheirDailyBudgetGetThreeAlertsEachAndTheExhaustedOnesRetriesStop() throws Exception {
        AppConfig config = config("budgets", Map.of("budget.daily.dimension", "agent", "budget.daily.limit.usd", "1",
                "budget.daily.stop-retries", "true", "backoff.base.llm-timeout.ms", "200"));
        String prefix = config.topicPrefix();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 1; i <= 12; i++) {
                    for (String agent : List.of("a1", "a2")) {
                        producer.send(record(prefix, agent, agent + "-" + i, Success.newBuilder().build())).get();
                    }
                }
                List<ConsumerRecord<String, BudgetAlert>> alerts = readAll(prefix + TopicNames.BUDGET_ALERTS, 6,
                        AvroSerde.specific(BudgetAlert.class).configured(serde, false).deserializer());
                // an agent's results come from several partitions, so which of its results crosses is not known; what is
                // spent at each crossing is
                for (String agent : List.of("a1", "a2")) {
                    assertThat(alerts).map(ConsumerRecord::value).filteredOn(alert -> alert.getValue().equals(agent))
                            .extracting(BudgetAlert::getThresholdPercent, alert -> Money.toDecimal(alert.getSpend()).stripTrailingZeros()
                                    .toPlainString())
                            .containsExactly(tuple(50, "0.5"), tuple(80, "0.8"), tuple(100, "1"));
                    assertThat(alerts).map(ConsumerRecord::value).filteredOn(alert -> alert.getValue().equals(agent))
                            .allSatisfy(alert -> assertThat(alert.getResultId()).startsWith("r-" + agent + "-"));
                }
                // the status the stop reads reaches the global store a moment after the alerts' transaction
                waitForCondition(() -> get(service, "/budgets").contains("\"exhausted\":true"), 30_000, "a budget exhausted");
                Thread.sleep(1_000);
                producer.send(record(prefix, "a3", "a3-fail", failure())).get();
                producer.send(record(prefix, "a1", "a1-fail", failure())).get();
            }
            List<ConsumerRecord<String, ClassifiedOutcome>> dead = readAll(prefix + TopicNames.DEAD_LETTER, 1,
                    AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false).deserializer());
            assertThat(dead.get(0).value().getResultId()).isEqualTo("r-a1-fail");
            assertThat(dead.get(0).value().getDecision().getStopReason()).isEqualTo(StopReason.BUDGET_EXCEEDED);
            assertThat(dead.get(0).value().getDecision().getReason()).contains("budget daily (agent a1) exhausted");
            List<ConsumerRecord<String, RetryRequest>> retried = readAll(prefix + TopicNames.RETRY_READY, 1,
                    AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer());
            assertThat(retried.get(0).value().getResultId()).isEqualTo("r-a3-fail");
            assertThat(scrapeSum(service, "agent_outcomes_budget_alerts_total", "threshold=\"100\"")).isEqualTo(2);
            JsonNode budgets = new ObjectMapper().readTree(get(service, "/budgets")).get("budgets");
            // a3's failure cost a cent: three values of the budget, two of them exhausted
            assertThat(budgets).extracting(value -> value.get("value").asText(),
                            value -> value.get("periods").get(0).get("exhausted").asBoolean())
                    .containsExactly(tuple("a1", true), tuple("a2", true), tuple("a3", false));
        }
    }

    private static ProducerRecord<String, AgentResult> record(String prefix, String agent, String task, Object outcome) {
        return new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS, task, AgentResult.newBuilder().setResultId("r-" + task)
                .setAgentId(agent).setTaskId(task).setDialect(Dialect.NATIVE).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(outcome instanceof Failure ? "0.01" : "0.10")))
                                .build()).build()).build());
    }

    private static Failure failure() {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build();
    }

    private static String get(AgentOutcomesService service, String path) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        return answer.statusCode() == 200 ? answer.body() : "";
    }
}
