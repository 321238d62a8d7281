package io.agentoutcomes.topology.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.HeaderNames;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The table of attribution fields: one constant per field of the schema, each found by its header; a whole attribution
 * bounded and merged field by field.
 */
class AttributionFieldTest {
    @Test
    void everyFieldOfTheAttributionSchemaIsOneConstantInItsOrder() {
        assertThat(AttributionField.ALL.stream().map(AttributionField::avroName).toList())
                .isEqualTo(Attribution.getClassSchema().getFields().stream().map(Schema.Field::name).toList());
        assertThat(AttributionField.ALL).containsExactly(AttributionField.TENANT_ID, AttributionField.TEAM,
                AttributionField.USER_ID, AttributionField.TAGS);
    }

    @Test
    void eachFieldIsFoundByItsHeaderAndNoOtherHeaderFindsOne() {
        assertThat(AttributionField.ofHeader(HeaderNames.TENANT_ID)).isEqualTo(AttributionField.TENANT_ID);
        assertThat(AttributionField.ofHeader(HeaderNames.TEAM)).isEqualTo(AttributionField.TEAM);
        assertThat(AttributionField.ofHeader(HeaderNames.USER_ID)).isEqualTo(AttributionField.USER_ID);
        assertThat(AttributionField.ofHeader(HeaderNames.TAGS)).isEqualTo(AttributionField.TAGS);
        assertThat(AttributionField.ofHeader("agent-id")).isNull();
    }

    @Test
    void aFieldsTextIsItsValueAndTheTagsTextTheirFirst() {
        Attribution attribution = new Attribution("acme", null, "u-1", List.of("batch", "eu"));
        assertThat(AttributionField.ALL.stream().map(field -> field.text(attribution)).toList())
                .containsExactly("acme", null, "u-1", "batch");
        assertThat(AttributionField.ALL.stream().map(field -> field.stated(attribution)).toList())
                .containsExactly(true, false, true, true);
        assertThat(AttributionField.TAGS.text(new Attribution(null, null, null, List.of()))).isNull();
    }

    @Test
    void aTagsHeaderIsCommaSeparatedAndBoundedWhileAValueIsSetAsItCame() {
        Attribution attribution = new Attribution(null, null, null, List.of());
        AttributionField.TAGS.setText(attribution, " a|b, ,a|b,c ");
        AttributionField.TEAM.setText(attribution, "  search ");
        assertThat(attribution).isEqualTo(new Attribution(null, "  search ", null, List.of("a/b", "c")));
    }

    @Test
    void whatTheResultSaysWinsAndTheHeadersFillTheRest() {
        Attribution given = new Attribution("acme", null, " ", List.of());
        Attribution headers = new Attribution("globex", "search", "u-1", List.of("batch"));
        assertThat(AttributionField.merged(given, headers))
                .isEqualTo(new Attribution("acme", "search", "u-1", List.of("batch")));
        assertThat(AttributionField.merged(null, null)).isNull();
        assertThat(AttributionField.merged(new Attribution(" ", null, null, List.of(" ")), null)).isNull();
    }
}
