package io.agentoutcomes.avro.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchemaRegistryStateTest {
    private static final String V1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
    private static final String V2_WITH_DEFAULT = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":[\"null\",\"int\"],\"default\":null}]}";
    private static final String V2_WITHOUT_DEFAULT = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
            + "{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":\"int\"}]}";

    private final SchemaRegistryState state = new SchemaRegistryState();

    @Test
    void registeringTheSameSchemaTwiceKeepsOneVersion() {
        RegisteredSchema first = state.register("s", V1);
        RegisteredSchema again = state.register("s", V1);

        assertThat(again).isEqualTo(first);
        assertThat(state.versions("s")).containsExactly(1);
    }

    @Test
    void aCompatibleChangeBecomesTheNextVersionWithANewId() {
        RegisteredSchema v1 = state.register("s", V1);
        RegisteredSchema v2 = state.register("s", V2_WITH_DEFAULT);

        assertThat(v2.version()).isEqualTo(2);
        assertThat(v2.id()).isEqualTo(v1.id() + 1);
        assertThat(state.version("s", "latest")).isEqualTo(v2);
        assertThat(state.version("s", "1")).isEqualTo(v1);
    }

    @Test
    void backwardIncompatibleChangeIsRefusedWith409() {
        state.register("s", V1);

        assertThatThrownBy(() -> state.register("s", V2_WITHOUT_DEFAULT))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(409);
                })
                .hasMessageContaining("READER_FIELD_MISSING_DEFAULT_VALUE");
        assertThat(state.versions("s")).containsExactly(1);
    }

    @Test
    void compatibilityNoneAcceptsAnyChange() {
        state.register("s", V1);
        state.setCompatibility("s", CompatibilityLevel.NONE);

        assertThat(state.register("s", V2_WITHOUT_DEFAULT).version()).isEqualTo(2);
        assertThat(state.globalCompatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
    }

    @Test
    void invalidSchemaIsRefusedWith42201() {
        assertThatThrownBy(() -> state.register("s", "{\"type\":\"record\"}"))
                .isInstanceOfSatisfying(SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.INVALID_SCHEMA));
    }

    @Test
    void lookUpsOfUnknownThingsGiveConfluentsErrorCodes() {
        state.register("s", V1);

        assertThatThrownBy(() -> state.version("missing", "latest")).isInstanceOfSatisfying(
                SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40401));
        assertThatThrownBy(() -> state.version("s", "7")).isInstanceOfSatisfying(
                SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40402));
        assertThatThrownBy(() -> state.lookup("s", V2_WITH_DEFAULT)).isInstanceOfSatisfying(
                SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40403));
        assertThatThrownBy(() -> state.schemaById(99)).isInstanceOfSatisfying(
                SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(40403));
        assertThatThrownBy(() -> state.version("s", "zero")).isInstanceOfSatisfying(
                SchemaRegistryException.class, e -> assertThat(e.errorCode()).isEqualTo(42202));
    }

    @Test
    void replayedEntriesRestoreIdsAndVersions() {
        RegisteredSchema v1 = state.register("s", V1);
        RegisteredSchema v2 = state.register("s", V2_WITH_DEFAULT);
        SchemaRegistryState restored = new SchemaRegistryState();

        restored.apply(v1);
        restored.apply(v2);
        restored.apply(v2);

        assertThat(restored.versions("s")).containsExactly(1, 2);
        assertThat(restored.schemaById(v2.id())).isEqualTo(v2.schema());
        assertThat(restored.register("other", "{\"type\":\"string\"}").id()).isEqualTo(v2.id() + 1);
    }
}
