package io.github.s3mergetree.connector.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.junit.jupiter.api.Test;

class NamedSettingsTest {
    static final ConfigOption<Boolean> DETECT_HEADER =
            ConfigOptions.key("input_format_csv_detect_header").booleanType().defaultValue(true);
    static final ConfigOption<Integer> THREADS =
            ConfigOptions.key("max_download_threads").intType().defaultValue(4);
    static final ConfigOption<String> ZONE =
            ConfigOptions.key("session_timezone").stringType().defaultValue("UTC");
    static final ConfigOption<Duration> INTERVAL =
            ConfigOptions.key("discovery-interval").durationType().noDefaultValue();

    final NamedSettings settings =
            NamedSettings.of(List.of(DETECT_HEADER, THREADS, ZONE, INTERVAL));

    @Test
    void anUnknownNameIsRefusedNamingTheNearestKnownOne() {
        assertThatThrownBy(() -> settings.check("input_format_csv_detect_heade", "1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown setting 'input_format_csv_detect_heade' (did you mean"
                                + " 'input_format_csv_detect_header'?)");
        assertThatThrownBy(() -> settings.check("Max_Download_Thread", "4"))
                .hasMessageContaining("did you mean 'max_download_threads'?");
        // nothing near: the known names
        assertThatThrownBy(() -> settings.check("compression", "gzip"))
                .hasMessage(
                        "unknown setting 'compression' (known: discovery-interval,"
                                + " input_format_csv_detect_header, max_download_threads,"
                                + " session_timezone)");
    }

    @Test
    void booleansTakeWhatClickHousesBoolSettingParserTakes() {
        for (String v : List.of("1", "true", "TRUE", "True", "tRuE")) {
            assertThat(settings.check("input_format_csv_detect_header", v)).isEqualTo("true");
        }
        for (String v : List.of("0", "false", "FALSE", "False")) {
            assertThat(settings.check("input_format_csv_detect_header", v)).isEqualTo("false");
        }
        for (String v : List.of("yes", "no", "on", "off", "2", "-1", " 1", "1 ", "", "01", "t")) {
            assertThatThrownBy(() -> settings.check("input_format_csv_detect_header", v))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Cannot parse bool from string '"
                                    + v
                                    + "' for setting 'input_format_csv_detect_header': expected"
                                    + " 0, 1, true or false");
        }
        // other types keep their text: the option parses it
        assertThat(settings.check("max_download_threads", "1")).isEqualTo("1");
        assertThat(settings.check("session_timezone", "true")).isEqualTo("true");
        assertThat(settings.checkAll(Map.of("input_format_csv_detect_header", "0")))
                .containsExactly(Map.entry("input_format_csv_detect_header", "false"));
    }

    @Test
    void booleanOptionsAreFoundAndDeclaredAsStringsForSql() {
        assertThat(NamedSettings.isBoolean(DETECT_HEADER)).isTrue();
        assertThat(NamedSettings.isBoolean(THREADS)).isFalse();
        assertThat(NamedSettings.isBoolean(ZONE)).isFalse();
        assertThat(NamedSettings.isBoolean(INTERVAL)).isFalse();
        assertThat(NamedSettings.booleansAsStrings(List.of(DETECT_HEADER, THREADS)))
                .hasSize(2)
                .contains(THREADS)
                .noneMatch(NamedSettings::isBoolean)
                .anyMatch(o -> o.key().equals("input_format_csv_detect_header"));
    }
}
