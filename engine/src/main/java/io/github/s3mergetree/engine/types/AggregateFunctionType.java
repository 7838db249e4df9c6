package io.github.s3mergetree.engine.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code AggregateFunction([version, ]f[(parameters)], T1, …)}: a column of intermediate states of
 * the aggregate function {@code f} over arguments of types T1… (ClickHouse's {@code
 * DataTypeAggregateFunction}).
 *
 * <p>Why a type of its own: the values are not T's but f's serialized states, written back to back
 * in a part's {@code .bin} without length prefixes, so only f's own format says where one ends;
 * AggregatingMergeTree's merges combine the states of equal sorting keys. In memory a value is the
 * state's serialized bytes ({@link PhysicalType#STRING}); the package {@code
 * io.github.s3mergetree.engine.aggregate} reads, writes, creates and merges them.
 *
 * <p>{@link #of} validates a declaration as ClickHouse 26.x does: unknown functions, wrong
 * parameter or argument counts and illegal argument types are refused with ClickHouse's messages;
 * functions, combinators and argument types ClickHouse accepts but this engine cannot merge are
 * refused naming the supported set. Names print canonically ({@code SUM} as {@code sum}, {@code
 * any_value} as {@code any}); an explicit serialization version prints when it is not 0.
 */
public final class AggregateFunctionType extends DataType {

    /** The aggregate functions whose states this engine reads, writes and merges. */
    public enum Function {
        ANY("any"),
        ANY_LAST("anyLast"),
        MIN("min"),
        MAX("max"),
        SUM("sum"),
        COUNT("count"),
        AVG("avg"),
        ARG_MIN("argMin"),
        ARG_MAX("argMax"),
        GROUP_ARRAY("groupArray"),
        UNIQ_EXACT("uniqExact"),
        UNIQ("uniq"),
        UNIQ_COMBINED("uniqCombined"),
        UNIQ_COMBINED_64("uniqCombined64"),
        /** groupArray with the -Array combinator: the elements of Array arguments. */
        GROUP_ARRAY_ARRAY("groupArrayArray");

        private final String canonicalName;

        Function(String canonicalName) {
            this.canonicalName = canonicalName;
        }

        /** The name ClickHouse prints, e.g. {@code anyLast}. */
        public String canonicalName() {
            return canonicalName;
        }
    }

    /** Names ClickHouse registers case-sensitively. */
    private static final Map<String, Function> SENSITIVE =
            Map.ofEntries(
                    Map.entry("any", Function.ANY),
                    Map.entry("anyLast", Function.ANY_LAST),
                    Map.entry("count", Function.COUNT),
                    Map.entry("argMin", Function.ARG_MIN),
                    Map.entry("argMax", Function.ARG_MAX),
                    Map.entry("groupArray", Function.GROUP_ARRAY),
                    Map.entry("uniqExact", Function.UNIQ_EXACT),
                    Map.entry("uniq", Function.UNIQ),
                    Map.entry("uniqCombined", Function.UNIQ_COMBINED),
                    Map.entry("uniqCombined64", Function.UNIQ_COMBINED_64),
                    Map.entry("groupArrayArray", Function.GROUP_ARRAY_ARRAY));

    /** Names and aliases ClickHouse registers case-insensitively, upper-cased. */
    private static final Map<String, Function> INSENSITIVE =
            Map.of(
                    "ANY_VALUE", Function.ANY,
                    "FIRST_VALUE", Function.ANY,
                    "LAST_VALUE", Function.ANY_LAST,
                    "MIN", Function.MIN,
                    "MAX", Function.MAX,
                    "SUM", Function.SUM,
                    "COUNT", Function.COUNT,
                    "AVG", Function.AVG,
                    "ARRAY_AGG", Function.GROUP_ARRAY);

    private final int version;
    private final Function function;
    private final long maxSize;
    private final String parameterText;
    private final List<DataType> arguments;

    private AggregateFunctionType(
            int version,
            Function function,
            long maxSize,
            String parameterText,
            List<DataType> arguments) {
        super(TypeKind.AGGREGATE_FUNCTION);
        this.version = version;
        this.function = function;
        this.maxSize = maxSize;
        this.parameterText = parameterText;
        this.arguments = List.copyOf(arguments);
    }

    /**
     * Resolves {@code AggregateFunction([version, ]name[(parameters)], argumentTypes...)} as
     * ClickHouse does.
     *
     * @param version the serialization version as written, or -1 when none is given
     * @param name the function name as written
     * @param parameters the parameters as written (literals), or null without parentheses
     * @param argumentTypes the argument types (possibly none)
     * @throws IllegalArgumentException with ClickHouse's message if the declaration is refused
     */
    public static AggregateFunctionType of(
            int version, String name, List<String> parameters, List<DataType> argumentTypes) {
        Function f = SENSITIVE.get(name);
        if (f == null) {
            f = INSENSITIVE.get(name.toUpperCase(Locale.ROOT));
        }
        if (f == null) {
            throw new IllegalArgumentException(
                    "Unknown aggregate function "
                            + name
                            + " or not supported by this engine in AggregateFunction(...)"
                            + " (supported: "
                            + supportedNames()
                            + "; no combinators such as -If, -Array, -Merge)");
        }
        String fname = f.canonicalName();
        List<String> params = parameters == null ? List.of() : parameters;
        long maxSize = Long.MAX_VALUE;
        String parameterText = "";
        if (!params.isEmpty()) {
            if (f == Function.UNIQ_COMBINED || f == Function.UNIQ_COMBINED_64) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + "("
                                + String.join(", ", params)
                                + "), ...) is not supported by this engine (the default precision,"
                                + " without a parameter, is)");
            }
            if (f != Function.GROUP_ARRAY && f != Function.GROUP_ARRAY_ARRAY) {
                throw new IllegalArgumentException(
                        "Aggregate function " + fname + " cannot have parameters");
            }
            // groupArrayArray's parameters are its nested groupArray's, named so in messages
            String paramOwner = Function.GROUP_ARRAY.canonicalName();
            if (params.size() > 1) {
                throw new IllegalArgumentException(
                        "Incorrect number of parameters for aggregate function "
                                + paramOwner
                                + ", should be 0 or 1");
            }
            try {
                maxSize = Long.parseLong(params.get(0).trim());
            } catch (NumberFormatException e) {
                maxSize = 0;
            }
            if (maxSize <= 0) {
                throw new IllegalArgumentException(
                        "Parameter for aggregate function "
                                + paramOwner
                                + " should be positive number");
            }
            parameterText = "(" + maxSize + ")";
        }
        checkArguments(f, argumentTypes);
        return new AggregateFunctionType(
                Math.max(version, 0), f, maxSize, parameterText, argumentTypes);
    }

    private static void checkArguments(Function f, List<DataType> args) {
        String fname = f.canonicalName();
        int n = args.size();
        switch (f) {
            case COUNT -> {
                if (n > 1) {
                    throw new IllegalArgumentException(
                            "Aggregate function count requires zero or one argument");
                }
            }
            case GROUP_ARRAY_ARRAY -> {
                if (n < 1) {
                    throw new IllegalArgumentException(
                            "Array aggregate functions require at least one argument");
                }
                for (DataType a : args) {
                    if (!(a instanceof ArrayType)) {
                        throw new IllegalArgumentException(
                                "Illegal type "
                                        + a.name()
                                        + " of argument for aggregate function with Array suffix."
                                        + " Must be array.");
                    }
                }
                if (n != 1) {
                    throw new IllegalArgumentException(
                            "Aggregate function groupArray requires single argument");
                }
                DataType e = ((ArrayType) args.get(0)).element();
                if (e instanceof LowCardinalityType) {
                    throw new IllegalArgumentException(
                            "AggregateFunction(groupArrayArray, "
                                    + args.get(0).name()
                                    + ") is not supported by this engine (declare the element"
                                    + " type without LowCardinality)");
                }
            }
            case ARG_MIN, ARG_MAX -> {
                if (n != 2) {
                    throw new IllegalArgumentException(
                            "Aggregate function " + fname + " requires two arguments");
                }
            }
            case UNIQ_EXACT, UNIQ, UNIQ_COMBINED, UNIQ_COMBINED_64 -> {
                if (n < 1) {
                    throw new IllegalArgumentException(
                            "Incorrect number of arguments for aggregate function " + fname);
                }
            }
            default -> {
                if (n != 1) {
                    throw new IllegalArgumentException(
                            "Aggregate function " + fname + " requires single argument");
                }
            }
        }
        for (DataType a : args) {
            if (a instanceof LowCardinalityType || a.simpleAggregateFunction() != null) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", ...) of "
                                + a.name()
                                + " is not supported by this engine (declare the argument type"
                                + " without LowCardinality or SimpleAggregateFunction)");
            }
            if (a instanceof AggregateFunctionType) {
                throw new IllegalArgumentException(
                        "AggregateFunction(" + fname + ", " + a.name() + ") is not supported");
            }
            if (a instanceof NullableType && (f == Function.ARG_MIN || f == Function.ARG_MAX)) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", ...) of Nullable arguments is not supported by this engine");
            }
        }
        if (f == Function.SUM || f == Function.AVG) {
            DataType t = args.get(0) instanceof NullableType nt ? nt.nested() : args.get(0);
            if (f == Function.AVG && isTemporal(t)) {
                throw new IllegalArgumentException(
                        "AggregateFunction(avg, "
                                + args.get(0).name()
                                + ") is not supported by this engine (avg of numbers and Decimal"
                                + " is)");
            }
            if (!isSummable(t)) {
                throw new IllegalArgumentException(
                        "Illegal type "
                                + t.name()
                                + " of argument for aggregate function "
                                + fname);
            }
        }
        if (f == Function.UNIQ_EXACT) {
            if (n != 1) {
                throw new IllegalArgumentException(
                        "AggregateFunction(uniqExact, ...) of several arguments is not supported by"
                                + " this engine");
            }
            DataType t = args.get(0) instanceof NullableType nt ? nt.nested() : args.get(0);
            boolean keyed =
                    switch (t.kind()) {
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
                                BOOL,
                                DATE,
                                DATE32,
                                DATETIME,
                                STRING ->
                                true;
                        default -> false;
                    };
            if (!keyed) {
                throw new IllegalArgumentException(
                        "AggregateFunction(uniqExact, "
                                + args.get(0).name()
                                + ") is not supported by this engine (integers, Date, Date32,"
                                + " DateTime and String are)");
            }
        }
        if (f == Function.UNIQ) {
            if (n != 1) {
                throw new IllegalArgumentException(
                        "AggregateFunction(uniq, ...) of several arguments is not supported by"
                                + " this engine");
            }
            DataType t = args.get(0) instanceof NullableType nt ? nt.nested() : args.get(0);
            boolean hashed =
                    switch (t.kind()) {
                        case UINT8, UINT16, UINT32, UINT64, UINT128, UINT256 -> true;
                        case INT8, INT16, INT32, INT64, INT128, INT256, BOOL, DECIMAL -> true;
                        case DATE, DATE32, DATETIME, DATETIME64, ENUM8, ENUM16 -> true;
                        case FLOAT32, FLOAT64, STRING, FIXED_STRING, UUID, IPV4, IPV6 -> true;
                        default -> false;
                    };
            if (!hashed) {
                throw new IllegalArgumentException(
                        "AggregateFunction(uniq, "
                                + args.get(0).name()
                                + ") is not supported by this engine (numbers, Bool, Decimal, dates,"
                                + " times, Enum, String, FixedString, UUID, IPv4, IPv6 are)");
            }
        }
        if (f == Function.UNIQ_COMBINED || f == Function.UNIQ_COMBINED_64) {
            if (n != 1) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", ...) of several arguments is not supported by this engine");
            }
            DataType t = args.get(0) instanceof NullableType nt ? nt.nested() : args.get(0);
            boolean hashed =
                    switch (t.kind()) {
                        case UINT8, UINT16, UINT32, UINT64, UINT256 -> true;
                        case INT8, INT16, INT32, INT64, INT128, INT256, BOOL, DECIMAL -> true;
                        case DATE, DATE32, DATETIME, DATETIME64, ENUM8, ENUM16 -> true;
                        case FLOAT32, FLOAT64, STRING, FIXED_STRING, IPV4, IPV6 -> true;
                        default -> false;
                    };
            if (!hashed) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", "
                                + args.get(0).name()
                                + ") is not supported by this engine (numbers but UInt128,"
                                + " Bool, Decimal, dates, times, Enum, String, FixedString, IPv4,"
                                + " IPv6 are)");
            }
        }
        if (f == Function.GROUP_ARRAY || f == Function.GROUP_ARRAY_ARRAY) {
            DataType v =
                    f == Function.GROUP_ARRAY ? args.get(0) : ((ArrayType) args.get(0)).element();
            DataType t = v instanceof NullableType nt ? nt.nested() : v;
            if (!isGroupArrayRaw(t)) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", "
                                + args.get(0).name()
                                + ") is not supported by this engine (groupArray of numbers, Bool,"
                                + " Enum, Date, DateTime and String is)");
            }
        }
        if (f == Function.MIN
                || f == Function.MAX
                || f == Function.ARG_MIN
                || f == Function.ARG_MAX) {
            DataType compared = args.get(args.size() - 1);
            DataType t = compared instanceof NullableType nt ? nt.nested() : compared;
            if (!isComparedByEngine(t)) {
                throw new IllegalArgumentException(
                        "AggregateFunction("
                                + fname
                                + ", ...) comparing values of "
                                + t.name()
                                + " is not supported by this engine (numbers, dates, times,"
                                + " Decimal, String, FixedString, UUID, IPv4, IPv6, Enum are)");
            }
        }
    }

    /**
     * Whether ClickHouse's groupArray keeps values of {@code t} in their plain binary form:
     * numbers, Bool, Enum, Date, DateTime ({@code GroupArrayNumericImpl}) and String. Other types
     * take its generic node, serialized as a VarUInt length and the value's arena form, which this
     * engine does not write.
     */
    private static boolean isGroupArrayRaw(DataType t) {
        return switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, UINT128, UINT256 -> true;
            case INT8, INT16, INT32, INT64, INT128, INT256, FLOAT32, FLOAT64, BOOL -> true;
            case ENUM8, ENUM16, DATE, DATETIME, STRING -> true;
            default -> false;
        };
    }

    /** Whether sum/avg take {@code t}: numbers, Bool and Decimal (not dates, as ClickHouse). */
    private static boolean isSummable(DataType t) {
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
                    DECIMAL ->
                    true;
            default -> false;
        };
    }

    /** Whether avg takes {@code t} in ClickHouse but this engine does not average it. */
    private static boolean isTemporal(DataType t) {
        return switch (t.kind()) {
            case DATE, DATE32, DATETIME, DATETIME64, ENUM8, ENUM16 -> true;
            default -> false;
        };
    }

    /** Whether min/max/argMin/argMax's compared argument has an order this engine implements. */
    private static boolean isComparedByEngine(DataType t) {
        return switch (t.kind()) {
            case ARRAY, TUPLE, MAP, NULLABLE, LOW_CARDINALITY, AGGREGATE_FUNCTION -> false;
            default -> true;
        };
    }

    /** The canonical names of the supported functions, comma-separated. */
    public static String supportedNames() {
        List<String> names = new ArrayList<>();
        for (Function f : Function.values()) {
            names.add(f.canonicalName());
        }
        return String.join(", ", names);
    }

    /** The aggregate function. */
    public Function function() {
        return function;
    }

    /** The argument types, as declared. */
    public List<DataType> arguments() {
        return arguments;
    }

    /** groupArray's {@code max_size} parameter ({@link Long#MAX_VALUE} without it). */
    public long maxSize() {
        return maxSize;
    }

    /** The explicit serialization version (0 when none or 0 was given). */
    public int version() {
        return version;
    }

    @Override
    protected String plainName() {
        StringBuilder b = new StringBuilder("AggregateFunction(");
        if (version != 0) {
            b.append(version).append(", ");
        }
        b.append(function.canonicalName()).append(parameterText);
        for (DataType a : arguments) {
            b.append(", ").append(a.name());
        }
        return b.append(')').toString();
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.STRING;
    }
}
