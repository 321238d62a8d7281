package io.agentoutcomes.app.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.Money;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.IndexedRecord;

/**
 * Avro records as plain JSON for people and HTTP clients: unions as their value (not Avro's {"type": value}; a member
 * of a union of several records gets a {@code "type"} naming it), money (decimals, and {@code bytes} fields whose
 * {@code "unit"} is {@code pico-usd}) as exact numbers, times ({@code long} fields whose {@code "unit"} is
 * {@code epoch-millis}) as ISO 8601 strings, enums as their symbol, free-form JSON text fields as text.
 */
public final class AvroJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private AvroJson() {
    }

    /** A union of several record types (the outcome): its members get a {@code "type"} naming the variant. */
    private static boolean isUnionOfRecords(Schema schema) {
        return schema.getType() == Schema.Type.UNION
                && schema.getTypes().stream().filter(t -> t.getType() == Schema.Type.RECORD).count() > 1;
    }

    public static JsonNode toJson(Object datum) {
        if (datum == null) {
            return NODES.nullNode();
        }
        if (datum instanceof IndexedRecord record) {
            ObjectNode object = NODES.objectNode();
            for (Schema.Field field : record.getSchema().getFields()) {
                Object value = record.get(field.pos());
                String unit = field.getProp(Money.UNIT_PROPERTY);
                JsonNode json = Money.EPOCH_MILLIS.equals(unit) && value instanceof Long millis
                        ? NODES.textNode(Instant.ofEpochMilli(millis).toString())
                        : Money.UNIT.equals(unit) && value instanceof ByteBuffer amount
                        ? NODES.numberNode(Money.toDecimal(amount))
                        : toJson(value);
                if (value instanceof IndexedRecord member && isUnionOfRecords(field.schema())) {
                    ObjectNode tagged = NODES.objectNode().put("type", member.getSchema().getName());
                    tagged.setAll((ObjectNode) json);
                    json = tagged;
                }
                object.set(field.name(), json);
            }
            return object;
        }
        if (datum instanceof CharSequence || datum instanceof GenericEnumSymbol<?> || datum instanceof Enum<?>) {
            return NODES.textNode(datum.toString());
        }
        if (datum instanceof BigDecimal decimal) {
            return NODES.numberNode(decimal);
        }
        if (datum instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (datum instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (datum instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (datum instanceof Float f) {
            return NODES.numberNode(f);
        }
        if (datum instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (datum instanceof Instant instant) {
            return NODES.textNode(instant.toString());
        }
        if (datum instanceof ByteBuffer bytes) {
            byte[] copy = new byte[bytes.remaining()];
            bytes.duplicate().get(copy);
            return NODES.textNode(Base64.getEncoder().encodeToString(copy));
        }
        if (datum instanceof Collection<?> items) {
            ArrayNode array = NODES.arrayNode();
            items.forEach(item -> array.add(toJson(item)));
            return array;
        }
        if (datum instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            map.forEach((key, value) -> object.set(String.valueOf(key), toJson(value)));
            return object;
        }
        return NODES.textNode(datum.toString());
    }
}
