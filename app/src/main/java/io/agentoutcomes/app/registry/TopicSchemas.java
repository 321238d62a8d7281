package io.agentoutcomes.app.registry;

import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.avro.serde.WireFormat;
import io.agentoutcomes.topology.topic.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The value schemas of the service's Avro topics, in the schema registry its serdes use. */
public final class TopicSchemas {
    private static final Logger LOG = LoggerFactory.getLogger(TopicSchemas.class);

    private TopicSchemas() {
    }

    /**
     * Registers the value schema of every Avro topic, so producers that do not register schemas themselves
     * ({@code auto.register.schemas=false}) find them; with that setting on the service too, only checks they are there.
     */
    public static void register(Topics topics, AvroSerdeConfig serdeConfig) {
        SchemaRegistryClient registry = serdeConfig.newClient();
        for (Topics.Topic<?, ?> topic : topics.all()) {
            topic.valueSchema().ifPresent(schema -> {
                String subject = WireFormat.subject(topic.name(), false);
                int id = serdeConfig.autoRegister() ? registry.register(subject, schema.toString())
                        : registry.idOf(subject, schema.toString());
                LOG.info("Schema {} is id {} under subject {}", schema.getFullName(), id, subject);
            });
        }
    }
}
