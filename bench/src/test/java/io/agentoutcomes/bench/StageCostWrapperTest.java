package io.agentoutcomes.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class StageCostWrapperTest {
    /** A clock the processors below move: each node's time is what it advanced the clock by itself. */
    private final long[] clock = new long[1];

    @Test
    void eachNodeHoldsItsOwnTimeNotThatOfTheProcessorsItForwardsTo() {
        StageCosts costs = StageCosts.register("wrapper-test-1", () -> clock[0]);
        try (TopologyTestDriver driver = driver("wrapper-test-1")) {
            TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic("out", Serdes.String().deserializer(),
                    Serdes.String().deserializer());
            in.pipeInput("k", "a");
            in.pipeInput("k", "b");

            assertThat(out.readValuesToList()).containsExactly("a!", "b!");
            assertThat(costs.node("agent-results-accept-attribute-price").nanos.sum()).isEqualTo(2 * (5 + 2));
            assertThat(costs.node("classify-agent-results").nanos.sum()).isEqualTo(2 * 3);
            assertThat(costs.calls()).containsEntry("agent-results-accept-attribute-price", 2L)
                    .containsEntry("classify-agent-results", 2L);
            // Kafka's own filter node, wrapped too; it moved the clock by nothing
            assertThat(costs.node("agent-results-keyed").nanos.sum()).isZero();
            assertThat(costs.calls()).containsEntry("agent-results-keyed", 2L);

            driver.advanceWallClockTime(Duration.ofSeconds(1));
            assertThat(costs.node("classify-agent-results").punctuationNanos.sum()).isEqualTo(11);
            assertThat(costs.node("classify-agent-results").calls.sum()).isEqualTo(2);
        }
    }

    @Test
    void stagesSumTheirNodesPerInputRecord() {
        StageCosts costs = StageCosts.register("wrapper-test-2", () -> clock[0]);
        try (TopologyTestDriver driver = driver("wrapper-test-2")) {
            TestInputTopic<String, String> in = driver.createInputTopic("in", Serdes.String().serializer(),
                    Serdes.String().serializer());
            in.pipeInput("k", "a");
            in.pipeInput("k", "b");
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
        List<StageCosts.StageFigures> stages = costs.perRecord(2);
        assertThat(stages).extracting(StageCosts.StageFigures::stage).containsExactly("ingest (JSON normalization)",
                StageCosts.INTAKE, "classify", "route", "schedule", "provider gate", "replay", "analytics", "budgets");
        assertThat(stages.get(1)).isEqualTo(new StageCosts.StageFigures(StageCosts.INTAKE, 7e-3, 0, 2,
                List.of("agent-results-accept-attribute-price", "agent-results-keyed")));
        assertThat(stages.get(2)).isEqualTo(new StageCosts.StageFigures("classify", (2 * 3 + 11) / 2e3, 11 / 2e3, 1,
                List.of("classify-agent-results")));
        assertThat(stages.get(3).nodes()).isEmpty();
    }

    @Test
    void nodesNoPrefixClaimsAreReportedByName() {
        assertThat(StageCosts.stageOf("agent-results-accept-attribute-price")).isEqualTo(StageCosts.INTAKE);
        assertThat(StageCosts.stageOf("agent-results-rekeyed-step")).isEqualTo(StageCosts.INTAKE);
        assertThat(StageCosts.stageOf("node-finished-by-key-repartition-filter")).isEqualTo(StageCosts.INTAKE);
        assertThat(StageCosts.stageOf("classify-node-finished")).isEqualTo("classify");
        assertThat(StageCosts.stageOf("provider-signals-repartition-filter")).isEqualTo("provider gate");
        assertThat(StageCosts.stageOf("budget-charges-repartition-filter")).isEqualTo("budgets");
        assertThat(StageCosts.stageOf("KSTREAM-FILTER-0000000042")).isEqualTo(StageCosts.OTHER);

        StageCosts costs = StageCosts.register("wrapper-test-3", () -> 0);
        costs.node("KSTREAM-FILTER-0000000042").calls.add(4);
        List<StageCosts.StageFigures> stages = costs.perRecord(2);
        assertThat(stages.get(stages.size() - 1)).isEqualTo(new StageCosts.StageFigures(StageCosts.OTHER, 0, 0, 2,
                List.of("KSTREAM-FILTER-0000000042")));
    }

    /**
     * in → agent-results-accept-attribute-price (5 before forwarding, 2 after) → agent-results-keyed (Kafka's filter)
     * → classify-agent-results (3; a punctuation every second of 11) → out: the pipeline's node names, so that the
     * stage table files them as it files the pipeline's.
     */
    private TopologyTestDriver driver(String applicationId) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageCostWrapper.class.getName());
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .processValues(Attribute::new, Named.as("agent-results-accept-attribute-price"))
                .filter((k, v) -> true, Named.as("agent-results-keyed"))
                .process(Price::new, Named.as("classify-agent-results"))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return new TopologyTestDriver(builder.build(props), props);
    }

    private final class Attribute implements FixedKeyProcessor<String, String, String> {
        private FixedKeyProcessorContext<String, String> context;

        @Override
        public void init(FixedKeyProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, String> record) {
            clock[0] += 5;
            context.forward(record);
            clock[0] += 2;
        }
    }

    private final class Price implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK_TIME, now -> clock[0] += 11);
        }

        @Override
        public void process(Record<String, String> record) {
            clock[0] += 3;
            context.forward(record.withValue(record.value() + "!"));
        }
    }
}
