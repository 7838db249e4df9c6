package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --setting name=value}: a typo is refused naming the nearest setting, a boolean takes what
 * ClickHouse takes (0, 1, true, false in any case) and reaches the source and the sink as
 * true/false.
 */
class IngestSettingsTest {
    @Test
    void aMistypedSettingNamesTheNearestOne() {
        assertThatThrownBy(() -> IngestSettings.parse(List.of("max_download_thread=4")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown setting 'max_download_thread' (did you mean"
                                + " 'max_download_threads'?)");
        assertThatThrownBy(() -> IngestSettings.parse(List.of("input_format_csv_detect_heade=0")))
                .hasMessage(
                        "unknown setting 'input_format_csv_detect_heade' (did you mean"
                                + " 'input_format_csv_detect_header'?)");
    }

    @Test
    void booleansTakeClickHouseValues() {
        IngestSettings s =
                IngestSettings.parse(
                        List.of(
                                "format_csv_allow_single_quotes=1",
                                "input_format_skip_unknown_fields=0",
                                "optimize_on_insert=TRUE",
                                "max_download_threads=8"));
        assertThat(s.source())
                .isEqualTo(
                        Map.of(
                                "format_csv_allow_single_quotes", "true",
                                "input_format_skip_unknown_fields", "false",
                                "max_download_threads", "8"));
        assertThat(s.sink())
                .isEqualTo(
                        Map.of(
                                "input_format_skip_unknown_fields", "false",
                                "optimize_on_insert", "true"));
        assertThatThrownBy(
                        () -> IngestSettings.parse(List.of("format_csv_allow_single_quotes=yes")))
                .hasMessage(
                        "Cannot parse bool from string 'yes' for setting"
                                + " 'format_csv_allow_single_quotes': expected 0, 1, true or"
                                + " false");
    }
}
