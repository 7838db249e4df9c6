package io.github.s3mergetree.source.s3.format.hive;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.text.TextParseException;
import io.github.s3mergetree.source.s3.format.text.WholeTextValues;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Hive-style partition values of an object's path ({@code
 * s3://b/t/region=north/day=2024-01-02/x.parquet} has {@code region = 'north'} and {@code day =
 * '2024-01-02'}), read as ClickHouse 26 does under {@code use_hive_partitioning} (its {@code
 * HivePartitioningUtils}):
 *
 * <ul>
 *   <li>every {@code key=value} directory of the whole key counts (not only those below the glob),
 *       the file name does not; the value is everything after the first {@code =} (so {@code k=a=b}
 *       is {@code a=b}), a pair of surrounding double quotes is dropped from key and value; keys
 *       are case-sensitive;
 *   <li>values are taken as they are: no URL-decoding ({@code a%20b} stays {@code a%20b}) and
 *       {@code __HIVE_DEFAULT_PARTITION__} is no NULL (a String column stores the text, a number
 *       column refuses it);
 *   <li>a key twice with different values is refused; twice with the same value is one key;
 *   <li>a value is converted to its column's type as {@code convertFieldToType} converts a string:
 *       parsed whole (nothing left over; date-times as {@code date_time_input_format = basic}),
 *       integers through 64 bits, and an integer out of the column's range is NULL in a Nullable
 *       column and refused otherwise.
 * </ul>
 */
@Internal
public final class HivePartitioning {
    private static final java.util.regex.Pattern DATE_TIME_WITH_FRACTION =
            java.util.regex.Pattern.compile(
                    "([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}[ T][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2})\\.[0-9]*");

    private HivePartitioning() {}

    /**
     * The {@code key=value} directories of {@code key} (an object key or path), in path order.
     *
     * @param object the object as named in messages
     * @throws ObjectFormatException when a key appears twice with different values
     */
    public static Map<String, String> keysAndValues(String key, String object)
            throws ObjectFormatException {
        Map<String, String> out = new LinkedHashMap<>();
        int end = key.lastIndexOf('/');
        int start = 0;
        while (start < end) {
            int slash = key.indexOf('/', start);
            if (slash < 0 || slash > end) {
                slash = end;
            }
            String segment = key.substring(start, slash);
            start = slash + 1;
            int eq = segment.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String k = unquote(segment.substring(0, eq));
            String v = unquote(segment.substring(eq + 1));
            if (k.isEmpty()) {
                continue;
            }
            String before = out.putIfAbsent(k, v);
            if (before != null && !before.equals(v)) {
                throw new ObjectFormatException(
                        "Path '"
                                + object
                                + "' to file with enabled hive-style partitioning contains"
                                + " duplicated partition key "
                                + k
                                + " with different values ('"
                                + before
                                + "' and '"
                                + v
                                + "'), only unique keys are allowed (use_hive_partitioning)");
            }
        }
        return out;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.charAt(0) == '"' && s.charAt(s.length() - 1) == '"'
                ? s.substring(1, s.length() - 1)
                : s;
    }

    /**
     * A column of {@code type} holding {@code value} converted to it once.
     *
     * @param object the object, column: for the message
     * @throws ObjectFormatException naming the object, column, value and type when ClickHouse
     *     refuses the conversion
     */
    public static Column convert(
            String value, DataType type, ZoneId zone, String object, String column)
            throws ObjectFormatException {
        Column out = Columns.create(type, 1);
        DataType inner = stripLowCardinality(type);
        boolean nullable = inner instanceof NullableType;
        DataType scalar = nullable ? stripLowCardinality(((NullableType) inner).nested()) : inner;
        Column target = nullable ? ((NullableColumn) out).nested() : out;
        try {
            if (isInt64OrNarrower(scalar.kind())) {
                // parsed as Int64 / UInt64, then fitted to the type: out of range is NULL
                boolean unsigned = scalar.isUnsigned();
                long v = WholeTextValues.parseInt64(value, !unsigned);
                if (!fits(v, scalar)) {
                    if (!nullable) {
                        throw new TextParseException(
                                (unsigned ? Long.toUnsignedString(v) : Long.toString(v))
                                        + " is out of the range of "
                                        + scalar.name());
                    }
                    ((NullableColumn) out).addNull();
                    return out;
                }
                switch (scalar.fixedWidth()) {
                    case 1 -> ((ByteColumn) target).add((byte) v);
                    case 2 -> ((ShortColumn) target).add((short) v);
                    case 4 -> ((IntColumn) target).add((int) v);
                    default -> ((LongColumn) target).add(v);
                }
            } else if (scalar.kind() == TypeKind.DATETIME) {
                // ClickHouse's reading of a date-time string skips a fractional part
                java.util.regex.Matcher m = DATE_TIME_WITH_FRACTION.matcher(value);
                WholeTextValues.append(m.matches() ? m.group(1) : value, scalar, zone, target);
            } else {
                WholeTextValues.append(value, scalar, zone, target);
            }
        } catch (TextParseException | IllegalArgumentException e) {
            throw new ObjectFormatException(
                    object
                            + ": hive partition column '"
                            + column
                            + "': cannot convert string '"
                            + io.github.s3mergetree.engine.convert.ValueConverter.escapeBytes(
                                    value.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                            + "' to type "
                            + scalar.name()
                            + ": "
                            + e.getMessage()
                            + " (use_hive_partitioning)",
                    e);
        }
        if (nullable) {
            ((NullableColumn) out).addNotNull();
        }
        return out;
    }

    private static DataType stripLowCardinality(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    private static boolean isInt64OrNarrower(TypeKind k) {
        return switch (k) {
            case UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64 -> true;
            default -> false;
        };
    }

    private static boolean fits(long v, DataType t) {
        return switch (t.kind()) {
            case UINT8 -> v >= 0 && v <= 0xFF;
            case UINT16 -> v >= 0 && v <= 0xFFFF;
            case UINT32 -> v >= 0 && v <= 0xFFFF_FFFFL;
            case INT8 -> v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE;
            case INT16 -> v >= Short.MIN_VALUE && v <= Short.MAX_VALUE;
            case INT32 -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
            default -> true;
        };
    }
}
