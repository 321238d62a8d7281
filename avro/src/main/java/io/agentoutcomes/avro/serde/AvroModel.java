package io.agentoutcomes.avro.serde;

import org.apache.avro.Conversions;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.specific.SpecificData;

/**
 * The data model the serde reads and writes generated classes with: Avro's specific model with every standard
 * logical-type conversion (decimal to BigDecimal, timestamps to Instant, ...). A generated class's own model only
 * knows the conversions of its own fields, which is not enough for nested records in unions.
 */
final class AvroModel {
    static final SpecificData SPECIFIC = create();

    private AvroModel() {
    }

    private static SpecificData create() {
        SpecificData model = new SpecificData(AvroModel.class.getClassLoader());
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
