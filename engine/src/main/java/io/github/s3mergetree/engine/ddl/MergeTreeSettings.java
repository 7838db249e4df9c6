package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.SqlLexer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code SETTINGS} of a MergeTree table: the values as written (name → value) plus typed
 * getters, with defaults, for the settings the part writer and the merge scheduler need.
 *
 * <p>Why: part layout (granularity, marks, compression) and insert throttling depend on these
 * settings. Only names ClickHouse 26.7 knows are accepted ({@code system.merge_tree_settings});
 * values are checked against the setting's type as ClickHouse checks them. The writer always writes
 * Wide parts, so {@code min_bytes_for_wide_part} and {@code min_rows_for_wide_part} are accepted
 * and ignored.
 *
 * <p>Defaults: as ClickHouse's, except {@link #compressMarks()} and {@link #compressPrimaryKey()},
 * which default to {@code false} here (ClickHouse 26.7 defaults to {@code true}) so that parts stay
 * readable by older ClickHouse versions unless the table asks for compressed marks; and the
 * compression block sizes, whose table-level default 0 means the server's 65536 / 1048576.
 */
public final class MergeTreeSettings {

    /** No settings: every getter returns its default. */
    public static final MergeTreeSettings DEFAULTS = new MergeTreeSettings(Map.of());

    /** name → value as a SQL literal (numbers bare, strings quoted). */
    private final Map<String, String> values;

    MergeTreeSettings(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * Settings from name → value text; numbers and booleans may be given bare ({@code 8192}, {@code
     * true}), other values are treated as strings.
     *
     * @throws IllegalArgumentException naming the setting if a name is unknown or a value does not
     *     fit the setting's type
     */
    public static MergeTreeSettings of(Map<String, String> settings) {
        Map<String, String> v = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String literal =
                    e.getValue().matches("-?\\d+(\\.\\d*)?([eE][+-]?\\d+)?|true|false")
                            ? e.getValue()
                            : SqlLexer.quoteString(e.getValue());
            String error = check(e.getKey(), literal);
            if (error != null) {
                throw new IllegalArgumentException(error);
            }
            v.put(e.getKey(), literal);
        }
        return new MergeTreeSettings(v);
    }

    /**
     * Validates one setting; returns an error message naming it, or null.
     *
     * @param literal the value as a SQL literal
     */
    static String check(String name, String literal) {
        String type = KnownMergeTreeSettings.TYPES.get(name);
        if (type == null) {
            return "Unknown setting '" + name + "' for storage MergeTree";
        }
        String text = unquote(literal);
        boolean quoted = literal.startsWith("'");
        switch (type) {
            case "UInt64",
                    "UInt32",
                    "NonZeroUInt64",
                    "Seconds",
                    "Milliseconds",
                    "UInt64Auto",
                    "MaxThreads" -> {
                if (type.equals("UInt64Auto") || type.equals("MaxThreads")) {
                    if (text.toLowerCase(Locale.ROOT).startsWith("auto")) {
                        return null;
                    }
                }
                Long v = parseUnsigned(text, quoted);
                if (v == null) {
                    if (text.startsWith("-")) {
                        return "Setting "
                                + name
                                + ": value "
                                + text
                                + " is out of range of an unsigned integer";
                    }
                    return "Setting " + name + ": cannot parse '" + text + "' as " + type;
                }
                if (v == 0 && (type.equals("NonZeroUInt64") || name.equals("index_granularity"))) {
                    return name + ": value 0 makes no sense (it must be greater than 0)";
                }
                return null;
            }
            case "Int64" -> {
                return text.matches("[+-]?\\d+")
                        ? null
                        : "Setting " + name + ": cannot parse '" + text + "' as Int64";
            }
            case "Bool" -> {
                String t = text.toLowerCase(Locale.ROOT);
                return t.equals("0") || t.equals("1") || t.equals("true") || t.equals("false")
                        ? null
                        : "Setting " + name + ": value " + text + " is out of range of Bool";
            }
            case "Float" -> {
                try {
                    Double.parseDouble(text);
                    return null;
                } catch (NumberFormatException e) {
                    return "Setting "
                            + name
                            + ": cannot read a floating point value from '"
                            + text
                            + "'";
                }
            }
            default -> {
                return null;
            }
        }
    }

    private static String unquote(String literal) {
        if (literal.startsWith("'")) {
            return literal.substring(1, literal.length() - 1)
                    .replace("\\'", "'")
                    .replace("\\\\", "\\");
        }
        return literal;
    }

    /** Parses an unsigned integer, with size suffixes (K, Ki, M, Mi, G, Gi, T, Ti) in strings. */
    static Long parseUnsigned(String text, boolean quoted) {
        String t = text.trim();
        long mult = 1;
        if (quoted) {
            String[][] suffixes = {
                {"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
                {"K", "1000"}, {"M", "1000000"}, {"G", "1000000000"}, {"T", "1000000000000"}
            };
            for (String[] s : suffixes) {
                if (t.endsWith(s[0]) || t.endsWith(s[0] + "B")) {
                    mult = Long.parseLong(s[1]);
                    t = t.substring(0, t.lastIndexOf(s[0])).trim();
                    break;
                }
            }
        }
        if (!t.matches("\\+?\\d+")) {
            return null;
        }
        try {
            return Math.multiplyExact(Long.parseLong(t.startsWith("+") ? t.substring(1) : t), mult);
        } catch (ArithmeticException | NumberFormatException e) {
            return null;
        }
    }

    /** The settings as given: name → value as a SQL literal, in order of first appearance. */
    public Map<String, String> asMap() {
        return values;
    }

    /** The value of {@code name} (strings unquoted), if set. */
    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null ? Optional.empty() : Optional.of(unquote(v));
    }

    /** Whether the table sets {@code name}. */
    public boolean isSet(String name) {
        return values.containsKey(name);
    }

    /** An unsigned integer setting, or {@code defaultValue} if not set. */
    public long getLong(String name, long defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        Long l = parseUnsigned(unquote(v), v.startsWith("'"));
        if (l == null) {
            throw new IllegalStateException("setting " + name + " is not an integer: " + v);
        }
        return l;
    }

    /** A boolean setting, or {@code defaultValue} if not set. */
    public boolean getBoolean(String name, boolean defaultValue) {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        String t = unquote(v).toLowerCase(Locale.ROOT);
        return t.equals("1") || t.equals("true");
    }

    /** A floating-point setting, or {@code defaultValue} if not set. */
    public double getDouble(String name, double defaultValue) {
        String v = values.get(name);
        return v == null ? defaultValue : Double.parseDouble(unquote(v));
    }

    /** Rows per granule (default 8192). */
    public long indexGranularity() {
        return getLong("index_granularity", 8192);
    }

    /**
     * Maximum bytes per granule for adaptive granularity (default 10485760); 0 means non-adaptive
     * granularity, i.e. {@code .mrk} parts with exactly {@link #indexGranularity()} rows per
     * granule.
     */
    public long indexGranularityBytes() {
        return getLong("index_granularity_bytes", 10485760);
    }

    /** Minimum bytes per granule for adaptive granularity (default 1024). */
    public long minIndexGranularityBytes() {
        return getLong("min_index_granularity_bytes", 1024);
    }

    /** Whether granularity is adaptive: {@code index_granularity_bytes != 0}. */
    public boolean adaptiveGranularity() {
        return indexGranularityBytes() != 0;
    }

    /** Minimum uncompressed bytes per compressed block (default: the server's 65536). */
    public long minCompressBlockSize() {
        long v = getLong("min_compress_block_size", 0);
        return v == 0 ? 65536 : v;
    }

    /** Maximum uncompressed bytes per compressed block (default: the server's 1048576). */
    public long maxCompressBlockSize() {
        long v = getLong("max_compress_block_size", 0);
        return v == 0 ? 1048576 : v;
    }

    /** Whether marks files are compressed ({@code .cmrk2}); default false here (see class doc). */
    public boolean compressMarks() {
        return getBoolean("compress_marks", false);
    }

    /** Whether the primary index is compressed ({@code primary.cidx}); default false here. */
    public boolean compressPrimaryKey() {
        return getBoolean("compress_primary_key", false);
    }

    /** The codec of compressed marks (default {@code ZSTD(3)}). */
    public String marksCompressionCodec() {
        return get("marks_compression_codec").orElse("ZSTD(3)");
    }

    /** The codec of a compressed primary index (default {@code ZSTD(3)}). */
    public String primaryKeyCompressionCodec() {
        return get("primary_key_compression_codec").orElse("ZSTD(3)");
    }

    /** Block size of compressed marks (default 65536). */
    public long marksCompressBlockSize() {
        return getLong("marks_compress_block_size", 65536);
    }

    /** Block size of a compressed primary index (default 65536). */
    public long primaryKeyCompressBlockSize() {
        return getLong("primary_key_compress_block_size", 65536);
    }

    /** ClickHouse's Wide/Compact threshold (default 10485760); accepted, ignored by the writer. */
    public long minBytesForWidePart() {
        return getLong("min_bytes_for_wide_part", 10485760);
    }

    /** Active parts in a partition beyond which inserts are delayed (default 1000). */
    public long partsToDelayInsert() {
        return getLong("parts_to_delay_insert", 1000);
    }

    /** Active parts in a partition beyond which inserts fail (default 3000). */
    public long partsToThrowInsert() {
        return getLong("parts_to_throw_insert", 3000);
    }

    /** Seconds before a merged-away part is removed (default 480). */
    public long oldPartsLifetime() {
        return getLong("old_parts_lifetime", 480);
    }

    /** Maximum total source bytes of one merge (default 161061273600). */
    public long maxBytesToMergeAtMaxSpaceInPool() {
        return getLong("max_bytes_to_merge_at_max_space_in_pool", 161061273600L);
    }

    /** Rows per block read during merges (default 8192). */
    public long mergeMaxBlockSize() {
        return getLong("merge_max_block_size", 8192);
    }

    /** Whether key columns may be Nullable (default false). */
    public boolean allowNullableKey() {
        return getBoolean("allow_nullable_key", false);
    }

    /** Share of default values above which a column is written sparse (default 0.9375). */
    public double ratioOfDefaultsForSparseSerialization() {
        return getDouble("ratio_of_defaults_for_sparse_serialization", 0.9375);
    }

    /** {@code serialization_info_version} (default {@code with_types}). */
    public String serializationInfoVersion() {
        return get("serialization_info_version").orElse("with_types");
    }

    /** {@code string_serialization_version} (default {@code with_size_stream}). */
    public String stringSerializationVersion() {
        return get("string_serialization_version").orElse("with_size_stream");
    }

    /** Whether a final mark is written (default true). */
    public boolean writeFinalMark() {
        return getBoolean("write_final_mark", true);
    }

    /** Whether long stream file names are replaced by their hash (default true). */
    public boolean replaceLongFileNameToHash() {
        return getBoolean("replace_long_file_name_to_hash", true);
    }

    /** The file name length above which names are hashed (default 127). */
    public long maxFileNameLength() {
        return getLong("max_file_name_length", 127);
    }

    /** {@code k = v, ...} as in a SETTINGS clause, or an empty string. */
    public String toSql() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(e.getKey()).append(" = ").append(e.getValue());
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MergeTreeSettings s && s.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return toSql();
    }
}
