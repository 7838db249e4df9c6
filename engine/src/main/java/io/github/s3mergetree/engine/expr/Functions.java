package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The registry of supported functions: name resolution, typing and kernel selection. */
final class Functions {
    private Functions() {}

    /** Types a call and picks its kernel; {@code types} are the argument types unwrapped. */
    @FunctionalInterface
    interface Binder {
        Bound bind(List<Expr> args, List<DataType> types, int position);
    }

    /** A typed call: its result type (before Nullable/LowCardinality wrapping) and kernel. */
    record Bound(DataType type, FunctionCall.Kernel kernel) {}

    /** A function definition. */
    record Def(
            String name,
            Binder binder,
            boolean defaultNulls,
            boolean defaultLowCardinality,
            boolean caseInsensitive) {}

    private static final Map<String, Def> EXACT = new HashMap<>();
    private static final Map<String, Def> INSENSITIVE = new HashMap<>();

    static void register(String name, boolean caseInsensitive, Binder binder, String... aliases) {
        register(new Def(name, binder, true, true, caseInsensitive), aliases);
    }

    static void register(Def def, String... aliases) {
        EXACT.put(def.name(), def);
        if (def.caseInsensitive()) {
            INSENSITIVE.put(def.name().toLowerCase(Locale.ROOT), def);
        }
        for (String a : aliases) {
            // aliases of the registered functions are all case-insensitive in ClickHouse
            INSENSITIVE.put(a.toLowerCase(Locale.ROOT), def);
        }
    }

    static {
        DateFunctions.register();
        ArithmeticFunctions.register();
        HashFunctions.register();
        ConversionFunctions.register();
        IntervalFunctions.register();
        StringFunctions.register();
        ComparisonFunctions.register();
        LogicalFunctions.register();
        DateTime64Functions.register();
        ConditionalFunctions.register();
        RegexFunctions.register();
        ArrayFunctions.register();
        MapFunctions.register();
        SplitFunctions.register();
    }

    /** The definition of {@code name} as ClickHouse resolves it, or null. */
    static Def lookup(String name) {
        Def d = EXACT.get(name);
        if (d == null) {
            d = INSENSITIVE.get(name.toLowerCase(Locale.ROOT));
        }
        return d;
    }

    /** Types a call of {@code def} and applies the default Nullable / LowCardinality handling. */
    static FunctionCall call(
            Def def, List<Expr> args, int position, FunctionCall.Form form, String operator) {
        int n = args.size();
        boolean[] unwrap = new boolean[n];
        boolean anyNullable = false;
        boolean anyLowCardinality = false;
        boolean allLowCardinalityOrConst = true;
        int lowCardinalityColumns = 0;
        for (int i = 0; i < n; i++) {
            DataType t = args.get(i).resultType();
            boolean lc = t instanceof LowCardinalityType;
            anyLowCardinality |= lc;
            if (!lc && !args.get(i).isConstant()) {
                allLowCardinalityOrConst = false;
            }
            if (lc && !args.get(i).isConstant()) {
                lowCardinalityColumns++;
            }
            if (def.defaultNulls() && Vectors.stripLowCardinality(t) instanceof NullableType) {
                unwrap[i] = true;
                anyNullable = true;
            }
        }
        if (def.defaultNulls()) {
            for (Expr a : args) {
                if (a instanceof Literal l && l.kind() == Literal.Kind.NULL) {
                    throw ExprException.unsupported(
                            "NULL arguments are not supported (function " + def.name() + ")",
                            position);
                }
            }
        }
        List<DataType> inner = FunctionCall.innerTypes(args, def.defaultNulls());
        Bound b = def.binder().bind(args, inner, position);
        DataType rt = b.type();
        boolean nullableResult = false;
        if (anyNullable) {
            rt = new NullableType(rt);
            nullableResult = true;
        }
        // as ClickHouse: a LowCardinality result only for one LowCardinality column, the other
        // arguments constants (two LowCardinality columns are computed as full columns)
        if (def.defaultLowCardinality()
                && anyLowCardinality
                && allLowCardinalityOrConst
                && lowCardinalityColumns <= 1) {
            try {
                rt = new LowCardinalityType(rt);
            } catch (IllegalArgumentException e) {
                // ClickHouse keeps the plain type when it cannot be inside LowCardinality
            }
        }
        return new FunctionCall(
                def.name(), operator, form, args, rt, b.kernel(), unwrap, nullableResult);
    }

    /** An "illegal type of argument" error in ClickHouse's words. */
    static ExprException illegalType(DataType type, int argIndex, String function, int position) {
        return ExprException.invalid(
                "Illegal type "
                        + type.name()
                        + " of argument "
                        + (argIndex + 1)
                        + " of function "
                        + function,
                position);
    }

    static ExprException argCount(String function, int got, String expected, int position) {
        return ExprException.invalid(
                "Function " + function + " expects " + expected + " arguments, got " + got,
                position);
    }

    /** The constant String value of argument {@code i}, or an error. */
    static String constString(List<Expr> args, int i, String function, String what, int pos) {
        Expr e = args.get(i);
        if (e instanceof Literal l && l.kind() == Literal.Kind.STRING) {
            return l.stringValue();
        }
        throw ExprException.invalid(
                "Argument "
                        + (i + 1)
                        + " ("
                        + what
                        + ") of function "
                        + function
                        + " must be a constant string",
                pos);
    }

    /** The constant integer value of argument {@code i}, or an error. */
    static long constInteger(List<Expr> args, int i, String function, String what, int pos) {
        Expr e = args.get(i);
        if (e instanceof Literal l && l.isInteger()) {
            return l.longValue();
        }
        throw ExprException.invalid(
                "Argument "
                        + (i + 1)
                        + " ("
                        + what
                        + ") of function "
                        + function
                        + " must be a constant integer",
                pos);
    }
}
