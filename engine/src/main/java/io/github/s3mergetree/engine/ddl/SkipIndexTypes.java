package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;
import java.util.Set;

/**
 * The checks ClickHouse's {@code MergeTreeIndexFactory} validators make of a data-skipping index at
 * CREATE TABLE (type name, argument count and values, column types), with ClickHouse's messages,
 * and the refusal of the types this engine does not write.
 *
 * <p>Why a class of its own: the parser only knows the syntax; which types exist, which arguments
 * they take and which of them the part writer implements is one table of rules, kept here.
 */
final class SkipIndexTypes {
    private SkipIndexTypes() {}

    /** ClickHouse's largest bloom filter, in bytes ({@code MAX_BLOOM_FILTER_SIZE}). */
    private static final long MAX_BLOOM_FILTER_SIZE = 1L << 30;

    /** The index types this engine writes into parts. */
    static final Set<String> WRITTEN =
            Set.of("minmax", "set", "bloom_filter", "tokenbf_v1", "ngrambf_v1");

    /** ClickHouse 26.x's index types, in the order of its "Available index types" message. */
    private static final List<String> KNOWN =
            List.of(
                    "hypothesis",
                    "text",
                    "vector_similarity",
                    "bloom_filter",
                    "sparse_grams",
                    "tokenbf_v1",
                    "ngrambf_v1",
                    "set",
                    "minmax");

    /** A refused index: ClickHouse's refusal, or ({@link #unsupported}) this engine's. */
    static final class Refusal extends RuntimeException {
        private final boolean unsupported;

        Refusal(String message, boolean unsupported) {
            super(message);
            this.unsupported = unsupported;
        }

        boolean unsupported() {
            return unsupported;
        }
    }

    /**
     * Checks {@code index} as ClickHouse does, then refuses the types not written here.
     *
     * @throws Refusal with ClickHouse's message, or naming the index and its unsupported type
     */
    static void validate(SkipIndexDefinition index) {
        String type = index.type();
        List<String> args = index.arguments();
        switch (type) {
            case "minmax":
                break;
            case "set":
                if (args.size() != 1) {
                    throw clickHouse(index, "Set index must have exactly one argument");
                }
                if (!isNonNegativeInteger(args.get(0))) {
                    throw clickHouse(index, "Set index argument must be positive integer");
                }
                break;
            case "bloom_filter":
                for (DataType t : index.expression().types()) {
                    if (!isBloomFilterType(t)) {
                        throw clickHouse(
                                index, "Unexpected type " + t.name() + " of bloom filter index");
                    }
                }
                if (args.size() > 1) {
                    throw clickHouse(
                            index, "BloomFilter index cannot have more than one parameter");
                }
                if (args.size() == 1) {
                    // a Float64 literal in [0, 1]: ClickHouse refuses 1 and 0 (UInt64), takes 1.0
                    double p = isFloatLiteral(args.get(0)) ? number(args.get(0)) : Double.NaN;
                    if (!(p >= 0 && p <= 1)) {
                        throw clickHouse(
                                index,
                                "The BloomFilter false positive must be a double number between 0"
                                        + " and 1");
                    }
                }
                break;
            case "tokenbf_v1":
            case "ngrambf_v1":
                // in bloomFilterIndexTextValidator's order: column types, argument count, ngram
                // length, unsigned integers, then BloomFilterParameters' checks
                boolean ngram = type.equals("ngrambf_v1");
                int expected = ngram ? 4 : 3;
                for (DataType t : index.expression().types()) {
                    if (!isTextType(t)) {
                        throw clickHouse(
                                index,
                                "Ngram and token bloom filter indexes can only be used with column"
                                        + " types `String`, `FixedString`, `LowCardinality(String)`,"
                                        + " `LowCardinality(FixedString)`, `Array(String)` or"
                                        + " `Array(FixedString)`");
                    }
                }
                if (args.size() != expected) {
                    throw clickHouse(
                            index,
                            "`"
                                    + (ngram ? "ngrambf" : "tokenbf")
                                    + "` index must have exactly "
                                    + expected
                                    + " arguments");
                }
                if (ngram && number(args.get(0)) < 1) {
                    throw clickHouse(index, "ngram length must be at least 1");
                }
                for (String a : args) {
                    if (!isUInt64(a)) {
                        throw clickHouse(
                                index, "All parameters to *bf_v1 index must be unsigned integers");
                    }
                }
                int first = ngram ? 1 : 0;
                if (number(args.get(first)) == 0) {
                    throw clickHouse(index, "The size of bloom filter cannot be zero");
                }
                if (number(args.get(first + 1)) == 0) {
                    throw clickHouse(
                            index, "The number of hash functions for bloom filter cannot be zero");
                }
                if (number(args.get(first)) > MAX_BLOOM_FILTER_SIZE) {
                    throw clickHouse(
                            index,
                            "The size of bloom filter cannot be more than "
                                    + MAX_BLOOM_FILTER_SIZE);
                }
                break;
            default:
                if (!KNOWN.contains(type)) {
                    throw clickHouse(
                            index,
                            "Unknown Index type '"
                                    + type
                                    + "'. Available index types: "
                                    + String.join(", ", KNOWN));
                }
        }
        if (!WRITTEN.contains(type)) {
            throw new Refusal(
                    "Skip index (INDEX) `"
                            + index.name()
                            + "` of type "
                            + type
                            + " is not supported by this engine (it writes only "
                            + "minmax, set, bloom_filter, tokenbf_v1 and ngrambf_v1"
                            + " indexes)",
                    true);
        }
    }

    private static Refusal clickHouse(SkipIndexDefinition index, String message) {
        return new Refusal(
                message + ": When validating secondary index `" + index.name() + "`", false);
    }

    private static boolean isFloatLiteral(String literal) {
        String l = literal.toLowerCase(java.util.Locale.ROOT);
        return !l.startsWith("0x") && (l.contains(".") || l.contains("e"));
    }

    private static boolean isUInt64(String literal) {
        try {
            Long.parseUnsignedLong(literal);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isNonNegativeInteger(String literal) {
        try {
            return Long.parseLong(literal) >= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static double number(String literal) {
        try {
            return Double.parseDouble(literal);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /**
     * The types ClickHouse's bloom_filter accepts: after one Array level, Nullable and
     * LowCardinality, a number (not Decimal), String, FixedString, Date (not Date32), DateTime,
     * DateTime64, Enum, UUID, IPv4 or IPv6.
     */
    private static boolean isBloomFilterType(DataType t) {
        if (t instanceof ArrayType a) {
            t = a.element();
            if (t instanceof ArrayType) {
                return false;
            }
        }
        while (t instanceof NullableType || t instanceof LowCardinalityType) {
            t = t instanceof NullableType n ? n.nested() : ((LowCardinalityType) t).nested();
        }
        return switch (t.kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    UINT128,
                    UINT256,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    INT128,
                    INT256,
                    FLOAT32,
                    FLOAT64,
                    BOOL,
                    STRING,
                    FIXED_STRING,
                    DATE,
                    DATETIME,
                    DATETIME64,
                    ENUM8,
                    ENUM16,
                    UUID,
                    IPV4,
                    IPV6 ->
                    true;
            default -> false;
        };
    }

    /**
     * The types ClickHouse's text bloom filters accept: String, FixedString or IPv6, directly, in
     * an Array or in a LowCardinality (not both).
     */
    private static boolean isTextType(DataType t) {
        if (t instanceof ArrayType a) {
            t = a.element();
        } else if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        return t.kind() == TypeKind.STRING
                || t.kind() == TypeKind.FIXED_STRING
                || t.kind() == TypeKind.IPV6;
    }
}
