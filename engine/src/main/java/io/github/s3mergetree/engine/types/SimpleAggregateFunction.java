package io.github.s3mergetree.engine.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The aggregate function of a {@code SimpleAggregateFunction(f, T)} column: a column stored as
 * plain T whose values AggregatingMergeTree's merges combine with {@code f} (ClickHouse's {@code
 * DataTypeCustomSimpleAggregateFunction}).
 *
 * <p>Why a separate description: the column's values, serialization and sort order are T's; only
 * the type's name and the merge differ. {@link #of} validates a declaration as ClickHouse 26.x
 * does: the function must be one ClickHouse allows here, its result type must be T (without
 * LowCardinality), and it prints under its canonical name ({@code SUM} and {@code any_value} print
 * as {@code sum} and {@code any}).
 */
public final class SimpleAggregateFunction {

    /** The functions this engine merges (ClickHouse allows a few more, refused by {@link #of}). */
    public enum Function {
        ANY("any"),
        ANY_RESPECT_NULLS("any_respect_nulls"),
        ANY_LAST("anyLast"),
        ANY_LAST_RESPECT_NULLS("anyLast_respect_nulls"),
        MIN("min"),
        MAX("max"),
        SUM("sum"),
        SUM_WITH_OVERFLOW("sumWithOverflow"),
        GROUP_BIT_AND("groupBitAnd"),
        GROUP_BIT_OR("groupBitOr"),
        GROUP_BIT_XOR("groupBitXor"),
        SUM_MAP("sumMap"),
        MIN_MAP("minMap"),
        MAX_MAP("maxMap"),
        GROUP_ARRAY_ARRAY("groupArrayArray"),
        GROUP_UNIQ_ARRAY_ARRAY("groupUniqArrayArray");

        private final String canonicalName;

        Function(String canonicalName) {
            this.canonicalName = canonicalName;
        }

        /** The name ClickHouse prints, e.g. {@code anyLast}. */
        public String canonicalName() {
            return canonicalName;
        }
    }

    /** ClickHouse's list, in its order, for the message refusing another function. */
    private static final String CLICKHOUSE_SUPPORTED =
            "any,any_respect_nulls,anyLast,anyLast_respect_nulls,min,max,sum,sumWithOverflow,"
                    + "groupBitAnd,groupBitOr,groupBitXor,sumMap,minMap,maxMap,groupArrayArray,"
                    + "groupArrayLastArray,groupUniqArrayArray,groupUniqArrayArrayMap,"
                    + "sumMappedArrays,minMappedArrays,maxMappedArrays";

    /** Allowed by ClickHouse, not implemented here. */
    private static final List<String> NOT_IMPLEMENTED =
            List.of(
                    "groupArrayLastArray",
                    "groupUniqArrayArrayMap",
                    "sumMappedArrays",
                    "minMappedArrays",
                    "maxMappedArrays");

    /** Names as ClickHouse's factory registers them case-sensitively. */
    private static final Map<String, Function> SENSITIVE =
            Map.ofEntries(
                    Map.entry("any", Function.ANY),
                    Map.entry("anyLast", Function.ANY_LAST),
                    Map.entry("any_respect_nulls", Function.ANY_RESPECT_NULLS),
                    Map.entry("anyRespectNulls", Function.ANY_RESPECT_NULLS),
                    Map.entry("first_value_respect_nulls", Function.ANY_RESPECT_NULLS),
                    Map.entry("anyLast_respect_nulls", Function.ANY_LAST_RESPECT_NULLS),
                    Map.entry("anyLastRespectNulls", Function.ANY_LAST_RESPECT_NULLS),
                    Map.entry("last_value_respect_nulls", Function.ANY_LAST_RESPECT_NULLS),
                    Map.entry("sumWithOverflow", Function.SUM_WITH_OVERFLOW),
                    Map.entry("groupBitAnd", Function.GROUP_BIT_AND),
                    Map.entry("groupBitOr", Function.GROUP_BIT_OR),
                    Map.entry("groupBitXor", Function.GROUP_BIT_XOR),
                    Map.entry("sumMap", Function.SUM_MAP),
                    Map.entry("minMap", Function.MIN_MAP),
                    Map.entry("maxMap", Function.MAX_MAP),
                    Map.entry("groupArrayArray", Function.GROUP_ARRAY_ARRAY),
                    Map.entry("groupUniqArrayArray", Function.GROUP_UNIQ_ARRAY_ARRAY));

    /** Names and aliases ClickHouse registers case-insensitively, upper-cased. */
    private static final Map<String, Function> INSENSITIVE =
            Map.of(
                    "ANY_VALUE", Function.ANY,
                    "FIRST_VALUE", Function.ANY,
                    "LAST_VALUE", Function.ANY_LAST,
                    "MIN", Function.MIN,
                    "MAX", Function.MAX,
                    "SUM", Function.SUM,
                    "BIT_AND", Function.GROUP_BIT_AND,
                    "BIT_OR", Function.GROUP_BIT_OR,
                    "BIT_XOR", Function.GROUP_BIT_XOR);

    private final Function function;
    private final long maxSize;
    private final String parameterText;

    private SimpleAggregateFunction(Function function, long maxSize, String parameterText) {
        this.function = function;
        this.maxSize = maxSize;
        this.parameterText = parameterText;
    }

    /**
     * Resolves {@code SimpleAggregateFunction(name[(parameters)], argumentTypes...)} as ClickHouse
     * does and checks that the function's result type is the storage type (the first argument
     * type).
     *
     * @param name the function name as written
     * @param parameters the parameters as written (literals), or null when there are no parentheses
     * @param argumentTypes the argument types (at least one)
     * @throws IllegalArgumentException with ClickHouse's message if the declaration is refused
     */
    public static SimpleAggregateFunction of(
            String name, List<String> parameters, List<DataType> argumentTypes) {
        Function f = SENSITIVE.get(name);
        if (f == null) {
            f = INSENSITIVE.get(name.toUpperCase(Locale.ROOT));
        }
        if (f == null) {
            if (NOT_IMPLEMENTED.contains(name)) {
                throw new IllegalArgumentException(
                        "SimpleAggregateFunction("
                                + name
                                + ", ...) is not supported by this engine (supported: "
                                + supportedNames()
                                + ")");
            }
            throw new IllegalArgumentException(
                    "Unsupported aggregate function "
                            + name
                            + ", supported functions are "
                            + CLICKHOUSE_SUPPORTED);
        }
        long maxSize = Long.MAX_VALUE;
        String parameterText = "";
        List<String> params = parameters == null ? List.of() : parameters;
        boolean arrays = f == Function.GROUP_ARRAY_ARRAY || f == Function.GROUP_UNIQ_ARRAY_ARRAY;
        String nested = f == Function.GROUP_ARRAY_ARRAY ? "groupArray" : "groupUniqArray";
        if (!params.isEmpty()) {
            if (!arrays) {
                throw new IllegalArgumentException(
                        "Aggregate function " + f.canonicalName() + " cannot have parameters");
            }
            if (params.size() > 1) {
                throw new IllegalArgumentException(
                        "Incorrect number of parameters for aggregate function "
                                + nested
                                + ", should be 0 or 1");
            }
            String p = params.get(0).trim();
            try {
                maxSize = Long.parseLong(p);
            } catch (NumberFormatException e) {
                maxSize = 0;
            }
            if (maxSize <= 0) {
                throw new IllegalArgumentException(
                        "Parameter for aggregate function "
                                + nested
                                + " should be positive number");
            }
            parameterText = "(" + maxSize + ")";
        }
        if (argumentTypes.isEmpty() || argumentTypes.size() > 1 && !isMapFunction(f)) {
            throw new IllegalArgumentException(
                    "Aggregate function " + f.canonicalName() + " requires single argument");
        }
        SimpleAggregateFunction saf = new SimpleAggregateFunction(f, maxSize, parameterText);
        DataType storage = argumentTypes.get(0);
        DataType result = saf.resultType(argumentTypes);
        DataType plainStorage = withoutLowCardinality(storage);
        if (!result.equals(plainStorage)) {
            throw new IllegalArgumentException(
                    "Incompatible data types between aggregate function '"
                            + f.canonicalName()
                            + "' which returns "
                            + result.name()
                            + " and column storage type "
                            + storage.name());
        }
        return saf;
    }

    /** The canonical names of the functions this engine merges, comma-separated. */
    public static String supportedNames() {
        List<String> names = new ArrayList<>();
        for (Function f : Function.values()) {
            names.add(f.canonicalName());
        }
        return String.join(", ", names);
    }

    public Function function() {
        return function;
    }

    /**
     * groupArrayArray's and groupUniqArrayArray's {@code max_size} parameter: at most this many
     * elements are kept ({@link Long#MAX_VALUE} without the parameter).
     */
    public long maxSize() {
        return maxSize;
    }

    /** The type's name over a storage type's name: {@code SimpleAggregateFunction(sum, UInt64)}. */
    String typeName(String storageName) {
        return "SimpleAggregateFunction("
                + function.canonicalName()
                + parameterText
                + ", "
                + storageName
                + ")";
    }

    private static boolean isMapFunction(Function f) {
        return f == Function.SUM_MAP || f == Function.MIN_MAP || f == Function.MAX_MAP;
    }

    /** The function's result type for the arguments, as ClickHouse's factory computes it. */
    private DataType resultType(List<DataType> args) {
        String fname = function.canonicalName();
        if (isMapFunction(function)) {
            return mapResultType(args);
        }
        DataType arg = withoutLowCardinality(args.get(0)).withoutSimpleAggregateFunction();
        switch (function) {
            case ANY_RESPECT_NULLS, ANY_LAST_RESPECT_NULLS -> {
                return arg;
            }
            case GROUP_ARRAY_ARRAY, GROUP_UNIQ_ARRAY_ARRAY -> {
                if (!(arg instanceof ArrayType a)) {
                    throw new IllegalArgumentException(
                            "Illegal type "
                                    + arg.name()
                                    + " of argument for aggregate function with Array suffix."
                                    + " Must be array.");
                }
                DataType element = withoutLowCardinality(a.element());
                if (element instanceof NullableType n) {
                    element = n.nested();
                }
                return new ArrayType(element);
            }
            default -> {}
        }
        boolean nullable = arg instanceof NullableType;
        DataType t = arg instanceof NullableType n ? n.nested() : arg;
        DataType r =
                switch (function) {
                    case ANY, ANY_LAST, MIN, MAX -> t;
                    case SUM -> sumType(t, fname, true);
                    case SUM_WITH_OVERFLOW -> {
                        sumType(t, fname, true);
                        // UInt8, which ClickHouse's type equality takes for Bool
                        yield t;
                    }
                    case GROUP_BIT_AND, GROUP_BIT_OR, GROUP_BIT_XOR -> {
                        if (t.kind() == TypeKind.FLOAT32 || t.kind() == TypeKind.FLOAT64) {
                            throw new IllegalArgumentException(
                                    "Illegal type "
                                            + t.name()
                                            + " of argument for aggregate function "
                                            + fname);
                        }
                        if (!isInteger(t)) {
                            throw new IllegalArgumentException(
                                    "The type "
                                            + t.name()
                                            + " of argument for aggregate function "
                                            + fname
                                            + " is illegal, because it cannot be used in bitwise"
                                            + " operations");
                        }
                        yield t;
                    }
                    default -> throw new IllegalStateException(fname);
                };
        return nullable ? new NullableType(r) : r;
    }

    private DataType mapResultType(List<DataType> args) {
        String fname = function.canonicalName();
        boolean sum = function == Function.SUM_MAP;
        if (args.size() == 1 && withoutLowCardinality(args.get(0)) instanceof MapType m) {
            DataType v = m.value();
            checkMapValue(v, fname);
            return new MapType(m.key(), sum ? sumType(v, "sum", true) : v);
        }
        List<DataType> arrays = new ArrayList<>();
        if (args.size() == 1 && withoutLowCardinality(args.get(0)) instanceof TupleType tt) {
            arrays.addAll(tt.elements());
        } else if (args.size() == 1) {
            throw new IllegalArgumentException(
                    "Aggregate function " + fname + " requires map as argument");
        } else {
            arrays.addAll(args);
        }
        if (arrays.size() < 2) {
            throw new IllegalArgumentException(
                    "Aggregate function " + fname + " requires at least two arguments");
        }
        List<DataType> out = new ArrayList<>();
        for (int i = 0; i < arrays.size(); i++) {
            DataType a = withoutLowCardinality(arrays.get(i));
            if (!(a instanceof ArrayType at)) {
                throw new IllegalArgumentException(
                        "Argument #" + i + " for " + fname + " must be an array, got " + a.name());
            }
            if (i == 0) {
                out.add(a);
                continue;
            }
            DataType v = at.element();
            if (v instanceof NullableType n) {
                v = n.nested();
            }
            checkMapValue(v, fname);
            // the tuple form promotes integers and floats only (Decimal(9, 2) stays), unlike sum
            out.add(new ArrayType(sum ? sumType(v, "sum", false) : v));
        }
        return new TupleType(null, out);
    }

    private static void checkMapValue(DataType v, String fname) {
        if (v instanceof NullableType || v instanceof LowCardinalityType) {
            throw new IllegalArgumentException(
                    "SimpleAggregateFunction("
                            + fname
                            + ") of Nullable or LowCardinality values ("
                            + v.name()
                            + ") is not supported by this engine");
        }
    }

    /**
     * sum's result type for {@code t}: (U)Int8…64 → (U)Int64, Float → Float64, Decimal → 128 or 256
     * bits at the same scale ({@code widenDecimals}), wide integers as they are.
     */
    private static DataType sumType(DataType t, String fname, boolean widenDecimals) {
        return switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, BOOL -> DataTypes.UINT64;
            case INT8, INT16, INT32, INT64 -> DataTypes.INT64;
            case UINT128, UINT256, INT128, INT256 -> t;
            case FLOAT32, FLOAT64 -> DataTypes.FLOAT64;
            case DECIMAL -> {
                DecimalType d = (DecimalType) t;
                if (!widenDecimals) {
                    yield t;
                }
                yield new DecimalType(d.precision() > 38 ? 76 : 38, d.scale());
            }
            default ->
                    throw new IllegalArgumentException(
                            "Illegal type "
                                    + t.name()
                                    + " of argument for aggregate function "
                                    + fname);
        };
    }

    private static boolean isInteger(DataType t) {
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
                    BOOL ->
                    true;
            default -> false;
        };
    }

    private static DataType withoutLowCardinality(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SimpleAggregateFunction s
                && s.function == function
                && s.maxSize == maxSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(function, maxSize);
    }

    @Override
    public String toString() {
        return function.canonicalName() + parameterText;
    }
}
