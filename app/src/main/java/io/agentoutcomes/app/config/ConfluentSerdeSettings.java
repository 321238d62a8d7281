package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The settings of Confluent's Avro serde and registry client ({@code AbstractKafkaSchemaSerDeConfig},
 * {@code KafkaAvroSerializerConfig}, {@code KafkaAvroDeserializerConfig}, {@code SchemaRegistryClientConfig}) that this
 * service's serde does not honour, each with why. Given one, the service refuses to start with its name, rather than
 * accept it and do otherwise; the ones it honours are {@link AvroSerdeConfig#HONOURED}. Any other setting goes to the
 * Kafka clients as before.
 */
public final class ConfluentSerdeSettings {
    private static final String SUBJECTS = "subjects are always <topic>-key / <topic>-value (Confluent's TopicNameStrategy)";
    private static final String WIRE = "records are always written with the magic byte and the 4-byte schema id before the body";
    private static final String OAUTH = "the registry client sends a static token only (bearer.auth.credentials.source=STATIC_TOKEN "
            + "with bearer.auth.token), it fetches no OAuth token";
    private static final String RULES = "data contracts' rules are not run";
    private static final String AVRO = "the service reads and writes its own generated Avro classes only";

    /** Each refused setting and why. */
    public static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("normalize.schemas", "schemas are registered as the generated classes print them, never normalized"),
            Map.entry("propagate.schema.tags", "schema tags are not supported"),
            Map.entry("use.schema.id", "the writer's schema is looked up or registered by subject, never fixed by id"),
            Map.entry("id.compatibility.strict", "use.schema.id is not supported"),
            Map.entry("latest.compatibility.strict", "with use.latest.version the latest schema is used without a compatibility check"),
            Map.entry("use.latest.with.metadata", "schema metadata is not supported"),
            Map.entry("latest.cache.size", "the client's caches hold every subject it uses (a handful of topics)"),
            Map.entry("max.schemas.per.subject", "the client's caches hold every subject it uses (a handful of topics)"),
            Map.entry("schema.format", "schemas are registered as Avro JSON"),
            Map.entry("rule.executors", RULES),
            Map.entry("rule.actions", RULES),
            Map.entry("rule.service.loader.enable", RULES),
            Map.entry("bearer.auth.issuer.endpoint.url", OAUTH),
            Map.entry("bearer.auth.client.id", OAUTH),
            Map.entry("bearer.auth.client.secret", OAUTH),
            Map.entry("bearer.auth.scope", OAUTH),
            Map.entry("bearer.auth.scope.claim.name", OAUTH),
            Map.entry("bearer.auth.sub.claim.name", OAUTH),
            Map.entry("bearer.auth.cache.expiry.buffer.seconds", OAUTH),
            Map.entry("bearer.auth.custom.provider.class", OAUTH),
            Map.entry("bearer.auth.identity.pool.id", "Confluent Cloud's identity-pool header is not sent"),
            Map.entry("bearer.auth.logical.cluster", "Confluent Cloud's logical-cluster header is not sent"),
            Map.entry("context.name.strategy", "schema contexts are not supported: " + SUBJECTS),
            Map.entry("key.subject.name.strategy", SUBJECTS),
            Map.entry("value.subject.name.strategy", SUBJECTS),
            Map.entry("key.schema.id.serializer", WIRE),
            Map.entry("value.schema.id.serializer", WIRE),
            Map.entry("key.schema.id.deserializer", "schema ids are always read from the magic byte and the 4 bytes after it"),
            Map.entry("value.schema.id.deserializer", "schema ids are always read from the magic byte and the 4 bytes after it"),
            Map.entry("schema.reflection", AVRO),
            Map.entry("avro.reflection.allow.null", AVRO),
            Map.entry("avro.use.logical.type.converters", AVRO + ", whose logical types are fixed"),
            Map.entry("avro.remove.java.properties", AVRO + ", whose schemas carry no Java properties"),
            Map.entry("specific.avro.key.type", AVRO + ", chosen per topic"),
            Map.entry("specific.avro.value.type", AVRO + ", chosen per topic"),
            Map.entry("proxy.host", "the registry client connects directly; no HTTP proxy"),
            Map.entry("proxy.port", "the registry client connects directly; no HTTP proxy"),
            Map.entry("missing.id.cache.ttl.sec", "a missing schema id is asked again each time, not cached"),
            Map.entry("missing.version.cache.ttl.sec", "a missing version is asked again each time, not cached"),
            Map.entry("missing.schema.cache.ttl.sec", "a missing schema is asked again each time, not cached"),
            Map.entry("missing.cache.size", "a missing schema is asked again each time, not cached"));

    /** Settings that are honoured with one value only: that value, and why another is refused. */
    static final Map<String, List<String>> ONLY = Map.of(AvroSerdeConfig.SPECIFIC_AVRO_READER,
            List.of("true", "the service always decodes its topics to its generated classes, so false cannot be honoured"));

    private static final String REQUEST_HEADER_PREFIX = "request.header.";

    private ConfluentSerdeSettings() {
    }

    /** Why a setting is refused, if it is: one of {@link #REFUSED}, a registry-client name this serde does not read, a value it cannot honour. */
    public static Optional<String> refusal(String name, String value) {
        String plain = name.startsWith(AvroSerdeConfig.CLIENT_NAMESPACE) && REFUSED.containsKey(
                name.substring(AvroSerdeConfig.CLIENT_NAMESPACE.length())) ? name.substring(AvroSerdeConfig.CLIENT_NAMESPACE.length()) : name;
        if (REFUSED.containsKey(plain)) {
            return Optional.of(REFUSED.get(plain));
        }
        if (ONLY.containsKey(name) && !ONLY.get(name).get(0).equalsIgnoreCase(value == null ? "" : value.trim())) {
            return Optional.of(ONLY.get(name).get(1));
        }
        if (name.startsWith(REQUEST_HEADER_PREFIX)) {
            return Optional.of("extra request headers are not sent to the registry");
        }
        if (name.startsWith(AvroSerdeConfig.CLIENT_NAMESPACE) && !AvroSerdeConfig.HONOURED.contains(name)
                && !name.equals(AgentOutcomesConfig.SCHEMA_REGISTRY_URL)) {
            return Optional.of("not a setting the registry client reads (docs/schemas.md lists those it does)");
        }
        return Optional.empty();
    }

    /** Refuses the settings that name what the serde does not do, each with its name and why; none: nothing happens. */
    static void refuseUnhonoured(Map<String, String> settings) {
        Map<String, String> refused = new TreeMap<>();
        settings.forEach((name, value) -> refusal(name, value).ifPresent(why -> refused.put(name, why)));
        if (!refused.isEmpty()) {
            StringBuilder message = new StringBuilder("Confluent serde settings this service does not honour (remove them; "
                    + "docs/schemas.md):");
            refused.forEach((name, why) -> message.append(' ').append(name).append(": ").append(why).append(';'));
            message.setLength(message.length() - 1);
            throw new ConfigError(message.toString());
        }
    }
}
