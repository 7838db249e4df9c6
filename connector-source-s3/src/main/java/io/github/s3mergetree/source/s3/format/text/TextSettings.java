package io.github.s3mergetree.source.s3.format.text;

import java.time.ZoneId;
import java.util.Locale;
import org.apache.flink.annotation.Internal;

/**
 * The ClickHouse format settings the text parsers follow, with ClickHouse's names and defaults
 * (ClickHouse 26.x): see {@link io.github.s3mergetree.source.s3.options.S3SourceOptions} for the
 * user-facing options.
 *
 * @param delimiter {@code format_csv_delimiter}
 * @param allowSingleQuotes {@code format_csv_allow_single_quotes} (0)
 * @param allowDoubleQuotes {@code format_csv_allow_double_quotes} (1)
 * @param csvEmptyAsDefault {@code input_format_csv_empty_as_default} (1)
 * @param tsvEmptyAsDefault {@code input_format_tsv_empty_as_default} (0)
 * @param nullAsDefault {@code input_format_null_as_default} (1): NULL into a non-Nullable column
 *     stores the type's default
 * @param skipUnknownFields {@code input_format_skip_unknown_fields} (1)
 * @param csvDetectHeader {@code input_format_csv_detect_header} (1)
 * @param tsvDetectHeader {@code input_format_tsv_detect_header} (1)
 * @param dateTimeInputFormat {@code date_time_input_format} ({@code best_effort})
 * @param sessionZone {@code session_timezone}: the zone of date-times whose type names none
 */
@Internal
public record TextSettings(
        char delimiter,
        boolean allowSingleQuotes,
        boolean allowDoubleQuotes,
        boolean csvEmptyAsDefault,
        boolean tsvEmptyAsDefault,
        boolean nullAsDefault,
        boolean skipUnknownFields,
        boolean csvDetectHeader,
        boolean tsvDetectHeader,
        DateTimeInputFormat dateTimeInputFormat,
        ZoneId sessionZone) {

    /** {@code date_time_input_format}. */
    public enum DateTimeInputFormat {
        BASIC,
        BEST_EFFORT,
        BEST_EFFORT_US;

        /** The value named as in ClickHouse ({@code basic}, {@code best_effort}, ...). */
        public static DateTimeInputFormat of(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "basic" -> BASIC;
                case "best_effort" -> BEST_EFFORT;
                case "best_effort_us" -> BEST_EFFORT_US;
                default ->
                        throw new IllegalArgumentException(
                                "date_time_input_format must be basic, best_effort or"
                                        + " best_effort_us, got '"
                                        + name
                                        + "'");
            };
        }
    }

    /** ClickHouse's defaults in UTC. */
    public static TextSettings defaults() {
        return new TextSettings(
                ',',
                false,
                true,
                true,
                false,
                true,
                true,
                true,
                true,
                DateTimeInputFormat.BEST_EFFORT,
                ZoneId.of("UTC"));
    }
}
