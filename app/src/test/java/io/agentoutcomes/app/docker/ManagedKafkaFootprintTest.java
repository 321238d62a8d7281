package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.app.redrive.Redrive;
import io.agentoutcomes.app.registry.KafkaSchemaStore;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.topic.Topics;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * docs/managed-kafka.md's topic table and ACLs against the code: the topics are those the service creates (its
 * topics, Kafka Streams' internal ones derived from the topology, `_schemas`), and the ACLs cover every one of them,
 * the consumer group and the transactional ids the code uses; the Strimzi and Confluent Cloud examples grant exactly
 * the table's ACLs.
 */
class ManagedKafkaFootprintTest {
    private static final String PREFIX = "agent-outcomes.";
    private static final String APPLICATION_ID = "agent-outcomes";
    private static final String[] BUDGET = {"budget.daily.dimension", "agent", "budget.daily.limit.usd", "1"};

    private final String scope = "managed-kafka-" + UUID.randomUUID();
    private final ManagedKafkaPage page = new ManagedKafkaPage();

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    private static AppConfig config(String... settings) {
        Map<String, String> given = new HashMap<>(Map.of("bootstrap.servers", "broker:9092"));
        for (int i = 0; i < settings.length; i += 2) {
            given.put(settings[i], settings[i + 1]);
        }
        return ConfigLoader.load(Optional.empty(), Map.of(), given);
    }

    private Topics topics(AppConfig config) {
        return new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());
    }

    /** The internal topics the service creates before Kafka Streams starts, as table rows by name. */
    private Map<String, List<String>> internal(AppConfig config) {
        return rows(config, TopicProvisioner.internalTopicsOf(AgentOutcomesTopology.build(topics(config), config.pipeline(),
                new Properties()).describe(), config.applicationId(), config.partitions()));
    }

    /** Every topic the service creates with these settings, the embedded registry's included. */
    private Map<String, List<String>> created(AppConfig config) {
        Map<String, List<String>> rows = rows(config, TopicProvisioner.specsOf(topics(config), config.partitions()));
        rows.putAll(internal(config));
        rows.putAll(rows(config, List.of(new TopicProvisioner.TopicSpec(AgentOutcomesService.SCHEMAS_TOPIC, 1, Topics.Cleanup.COMPACT))));
        return rows;
    }

    private static Map<String, List<String>> rows(AppConfig config, List<TopicProvisioner.TopicSpec> specs) {
        Map<String, List<String>> rows = new TreeMap<>();
        specs.forEach(spec -> rows.put(spec.name(), List.of(
                spec.partitions() == config.partitions() ? "topic.partitions" : String.valueOf(spec.partitions()),
                spec.cleanup().name().toLowerCase(Locale.ROOT),
                new TreeMap<>(spec.configs()).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(", ")))));
        return rows;
    }

    private Map<String, List<String>> table() {
        Map<String, List<String>> rows = new TreeMap<>();
        page.table("topics").forEach(row -> rows.put(row.get(0), row.subList(1, 4)));
        return rows;
    }

    private Set<String> namesWhen(String when) {
        Set<String> names = new TreeSet<>();
        page.table("topics").stream().filter(row -> row.get(4).startsWith(when)).forEach(row -> names.add(row.get(0)));
        return names;
    }

    private static Set<String> minus(Map<String, ?> all, Map<String, ?> without) {
        Set<String> names = new TreeSet<>(all.keySet());
        names.removeAll(without.keySet());
        return names;
    }

    @Test
    void theTopicTableIsEveryTopicTheServiceCreatesWithItsPartitionsCleanupPolicyAndConfigs() {
        assertThat(table()).isEqualTo(created(config(BUDGET)));
    }

    @Test
    void theWhenColumnSaysWhichSettingsAddEachInternalTopic() {
        AppConfig defaults = config();
        AppConfig minimal = config("provider.gate.enabled", "false", "analytics.enabled", "false");
        Set<String> always = new TreeSet<>(rows(minimal, TopicProvisioner.specsOf(topics(minimal), minimal.partitions())).keySet());
        always.addAll(internal(minimal).keySet());

        assertThat(namesWhen("always")).isEqualTo(always);
        assertThat(namesWhen("provider gate on")).isEqualTo(minus(internal(defaults), internal(config("provider.gate.enabled", "false"))));
        assertThat(namesWhen("analytics on")).isEqualTo(minus(internal(defaults), internal(config("analytics.enabled", "false"))));
        assertThat(namesWhen("a budget declared")).isEqualTo(minus(internal(config(BUDGET)), internal(defaults)));
        assertThat(namesWhen("the embedded registry")).containsExactly(AgentOutcomesService.SCHEMAS_TOPIC);
    }

    /** One ACL: resource type, name, pattern type and operations, as the page's table writes them. */
    private record Acl(String type, String name, String pattern, Set<String> operations) {
        boolean covers(String type, String resource) {
            return this.type.equals(type) && (pattern.equals("PREFIXED") ? resource.startsWith(name) : resource.equals(name));
        }
    }

    private static Set<String> operations(String list) {
        return Arrays.stream(list.split(",")).map(op -> op.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", ""))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The page's ACL table with the examples' topic.prefix and the default application.id written in. */
    private List<Acl> aclTable() {
        List<Acl> acls = new ArrayList<>();
        page.table("acls").forEach(row -> acls.add(new Acl(row.get(0), row.get(1).replace("<topic.prefix>", PREFIX)
                .replace("<application.id>", APPLICATION_ID), row.get(2), operations(row.get(3)))));
        return acls;
    }

    private Set<String> granted(String type, String resource) {
        Set<String> operations = new HashSet<>();
        aclTable().stream().filter(acl -> acl.covers(type, resource)).forEach(acl -> operations.addAll(acl.operations()));
        return operations;
    }

    @Test
    void theAclsCoverEveryTopicTheGroupAndEveryTransactionalIdTheCodeUses() throws Exception {
        AppConfig config = config(BUDGET[0], BUDGET[1], BUDGET[2], BUDGET[3], "topic.prefix", PREFIX);
        assertThat(config.applicationId()).isEqualTo(APPLICATION_ID);
        Field redrive = Redrive.class.getDeclaredField("transactionalId");
        redrive.setAccessible(true);

        created(config).keySet().forEach(topic -> {
            // the OTLP input is only read: the Collector writes it, the service never does
            assertThat(granted("Topic", topic)).as(topic).containsAll(topic.equals(config.otlpSpansTopic())
                    ? List.of("describe", "read", "create") : List.of("describe", "read", "write", "create"));
            if (topic.endsWith("-repartition")) {
                assertThat(granted("Topic", topic)).as("%s: Kafka Streams purges it", topic).contains("delete");
            }
        });
        assertThat(granted("Group", config.applicationId())).containsExactlyInAnyOrder("read", "describe");
        for (String transactionalId : List.of(config.applicationId() + "-" + UUID.randomUUID() + "-1",
                (String) redrive.get(new Redrive(Map.of(), topics(config), config.applicationId(), Clock.systemUTC())),
                KafkaSchemaStore.transactionalId(AgentOutcomesService.SCHEMAS_TOPIC))) {
            assertThat(granted("TransactionalId", transactionalId)).as(transactionalId).containsExactlyInAnyOrder("write", "describe");
        }
        assertThat(aclTable()).extracting(Acl::type).doesNotContain("Cluster");
    }

    /** The ACLs SecuredClusterIT grants, and nothing else, for the service to work over SASL_SSL and mutual TLS. */
    @Test
    void theAclTableIsTheListSecuredClusterItGrantsAndProves() throws Exception {
        Method documented = Class.forName("io.agentoutcomes.app.faults.SecuredClusterIT")
                .getDeclaredMethod("documentedAcls", String.class, String.class, String.class);
        documented.setAccessible(true);
        Map<String, Acl> proven = new TreeMap<>();
        for (Object granted : (List<?>) documented.invoke(null, "agent-outcomes", APPLICATION_ID, PREFIX)) {
            AclBinding binding = (AclBinding) granted;
            String type = switch (binding.pattern().resourceType()) {
                case TOPIC -> "Topic";
                case GROUP -> "Group";
                case TRANSACTIONAL_ID -> "TransactionalId";
                default -> throw new AssertionError("unexpected " + binding);
            };
            String key = type + " " + binding.pattern().name() + " " + binding.pattern().patternType();
            proven.computeIfAbsent(key, k -> new Acl(type, binding.pattern().name(), binding.pattern().patternType().name(),
                    new TreeSet<>())).operations().addAll(operations(binding.entry().operation().name()));
        }

        assertThat(aclTable()).containsExactlyInAnyOrderElementsOf(proven.values());
    }

    private static String typeOf(String strimziType) {
        return switch (strimziType) {
            case "topic" -> "Topic";
            case "group" -> "Group";
            case "transactionalId" -> "TransactionalId";
            default -> throw new AssertionError("unexpected resource type " + strimziType);
        };
    }

    @Test
    void theStrimziUserAndTheConfluentCloudCommandsGrantExactlyTheAclTable() {
        JsonNode user = ManagedKafkaPage.yaml(ManagedKafkaPage.blocks(page.section("Strimzi"), "yaml").get(0)).get(0);
        List<Acl> strimzi = new ArrayList<>();
        user.get("spec").get("authorization").get("acls").forEach(acl -> {
            JsonNode resource = acl.get("resource");
            List<String> ops = new ArrayList<>();
            acl.get("operations").forEach(op -> ops.add(op.asText()));
            strimzi.add(new Acl(typeOf(resource.get("type").asText()), resource.get("name").asText(),
                    resource.get("patternType").asText().equals("prefix") ? "PREFIXED" : "LITERAL", operations(String.join(",", ops))));
        });
        assertThat(strimzi).containsExactlyInAnyOrderElementsOf(aclTable());

        List<Acl> confluent = new ArrayList<>();
        Matcher command = Pattern.compile("confluent kafka acl create --allow --service-account \\S+ --operations (\\S+) "
                + "--(topic|consumer-group|transactional-id) (\\S+)( --prefix)?").matcher(page.section("Confluent Cloud"));
        while (command.find()) {
            String type = switch (command.group(2)) {
                case "topic" -> "Topic";
                case "consumer-group" -> "Group";
                default -> "TransactionalId";
            };
            confluent.add(new Acl(type, command.group(3), command.group(4) == null ? "LITERAL" : "PREFIXED", operations(command.group(1))));
        }
        assertThat(confluent).as("the table without the embedded registry's rows (Confluent Cloud has its registry)")
                .containsExactlyInAnyOrderElementsOf(aclTable().stream().filter(acl -> !acl.name().startsWith("_schemas")).toList());
    }
}
