package io.agentoutcomes.avro.serde;

import org.apache.avro.Conversions;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.specific.SpecificData;

/**
 * The data model the serde reads and writes generated classes with: Avro's specific model with its custom coders on
 * (the generated {@code customEncode}/{@code customDecode} of records without logical types: no reflection, no union
 * resolution by lookup; off by default in Avro), and with every standard logical-type conversion (decimal to
 * BigDecimal, ...) for the records that keep one. A generated class's own model only knows the conversions of its own
 * fields, which is not enough for nested records in unions. The records Avro generates no custom coders for have
 * hand-written ones ({@link RecordCoders}); this model writes and reads them only when those do not apply.
 */
public final class AvroModel {
    public static final SpecificData SPECIFIC = create();

    private AvroModel() {
    }

    private static SpecificData create() {
        SpecificData model = new SpecificData(AvroModel.class.getClassLoader());
        model.setCustomCoders(true);
        model.addLogicalTypeConversion(new Conversions.DecimalConversion());
        model.addLogicalTypeConversion(new Conversions.UUIDConversion());
        model.addLogicalTypeConversion(new TimeConversions.DateConversion());
        model.addLogicalTypeConversion(new TimeConversions.TimeMillisConversion());
        model.addLogicalTypeConversion(new TimeConversions.TimeMicrosConversion());
        model.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        model.addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
        model.addLogicalTypeConversion(new TimeConversions.LocalTimestampMillisConversion());
        model.addLogicalTypeConversion(new TimeConversions.LocalTimestampMicrosConversion());
        return model;
    }
}
