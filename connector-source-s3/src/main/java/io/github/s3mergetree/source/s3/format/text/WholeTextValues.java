package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import org.apache.flink.annotation.Internal;

/**
 * One value of a ClickHouse type parsed from a whole string, as ClickHouse's {@code
 * ISerialization::deserializeWholeText} with default format settings does it (strings as they are,
 * numbers and dates with nothing left over, date-times as {@code date_time_input_format = basic}):
 * what {@code convertFieldToType} does to a string, e.g. a hive partition value of an object's path
 * ({@code .../year=2024/...}) converted to its column's type.
 */
@Internal
public final class WholeTextValues {
    private WholeTextValues() {}

    /**
     * Appends {@code text} parsed as one value of {@code type} to {@code column} (a column of
     * {@code type}); date-times whose type names no zone are in {@code zone}.
     *
     * @throws TextParseException with ClickHouse's reason when the text is not such a value
     */
    public static void append(String text, DataType type, ZoneId zone, Column column) {
        TextSettings basic =
                new TextSettings(
                        ',',
                        false,
                        true,
                        true,
                        false,
                        true,
                        true,
                        true,
                        true,
                        TextSettings.DateTimeInputFormat.BASIC,
                        zone);
        ValueReader reader = ValueReader.of(type, new ValueReader.Scratch(basic));
        ByteBuf buf = new ByteBuf();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        buf.add(bytes, 0, bytes.length);
        if (bytes.length == 0 && !reader.isStringLike()) {
            throw TextParseException.afterEof();
        }
        reader.readWhole(buf, column);
    }

    /**
     * {@code text} as a 64-bit integer ({@code readIntText}: an optional sign, digits, leading
     * zeros allowed, wrapping modulo 2^64) with nothing left over, as ClickHouse parses a string it
     * converts to an integer type (promoted to Int64 / UInt64 first).
     *
     * @param signed Int64 ({@code true}) or UInt64 (a {@code -} is refused)
     * @throws TextParseException with ClickHouse's reason
     */
    public static long parseInt64(String text, boolean signed) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        TextCursor in = TextCursor.over(bytes, 0, bytes.length);
        long v = Numbers.readInt(in, signed);
        if (!in.eof()) {
            throw new TextParseException(
                    "Cannot convert string '"
                            + TextCursor.escape(bytes, 0, bytes.length)
                            + "' to type "
                            + (signed ? "Int64" : "UInt64"));
        }
        return v;
    }
}
