package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A function applied to argument expressions ({@code toYYYYMM(d)}, {@code a % 2}, {@code tuple(a,
 * b)}, ...), typed and evaluated as ClickHouse does.
 *
 * <p>Arguments of Nullable type are handled as ClickHouse's default implementation does for most
 * functions: the function is computed on the non-NULL values and the result is NULL wherever any
 * argument is; LowCardinality arguments are computed on their values and the result type is wrapped
 * in LowCardinality when ClickHouse would.
 */
public final class FunctionCall extends BaseExpr {

    /** How the call prints as SQL. */
    enum Form {
        /** {@code name(a, b)}. */
        CALL,
        /** {@code a op b}. */
        INFIX,
        /** {@code -a}, {@code NOT a}. */
        PREFIX,
        /** {@code a IS NULL}. */
        POSTFIX,
        /** {@code a IN (b, c)}: the first argument, the operator, the others in parentheses. */
        IN,
        /** {@code (a, b)}. */
        TUPLE,
        /** {@code [a, b]}: an array of the arguments. */
        ARRAY,
        /** {@code a[i]}: the first argument subscripted by the second. */
        SUBSCRIPT,
        /** Prints as its only argument: the conversion ClickHouse applies to a DEFAULT value. */
        IMPLICIT
    }

    /** Computes a function over argument columns of the (unwrapped) argument types. */
    @FunctionalInterface
    interface Kernel {
        Column apply(Column[] args, int rows, EvaluationContext ctx);
    }

    private final String name;
    private final String operator;
    private final Form form;
    private final List<Expr> args;
    private final DataType resultType;
    private final Kernel kernel;
    private final boolean[] unwrapNullable;
    private final boolean nullableResult;
    private final Set<String> required;

    FunctionCall(
            String name,
            String operator,
            Form form,
            List<Expr> args,
            DataType resultType,
            Kernel kernel,
            boolean[] unwrapNullable,
            boolean nullableResult) {
        this.name = name;
        this.operator = operator;
        this.form = form;
        this.args = List.copyOf(args);
        this.resultType = resultType;
        this.kernel = kernel;
        this.unwrapNullable = unwrapNullable;
        this.nullableResult = nullableResult;
        Set<String> r = new LinkedHashSet<>();
        for (Expr a : args) {
            r.addAll(a.requiredColumns());
        }
        this.required = Collections.unmodifiableSet(r);
    }

    /** The ClickHouse function name (aliases and operators resolved, e.g. {@code modulo}). */
    public String name() {
        return name;
    }

    /** The arguments. */
    public List<Expr> arguments() {
        return args;
    }

    /** Whether this is the implicit conversion of a DEFAULT value to its column's type. */
    public boolean isImplicitConversion() {
        return form == Form.IMPLICIT;
    }

    @Override
    public DataType resultType() {
        return resultType;
    }

    @Override
    public Set<String> requiredColumns() {
        return required;
    }

    @Override
    public boolean isConstant() {
        return required.isEmpty()
                && !name.equals("now")
                && !name.equals("now64")
                && !name.equals("today");
    }

    @Override
    public String toSql() {
        switch (form) {
            case IMPLICIT:
                return args.get(0).toSql();
            case INFIX:
                {
                    StringBuilder b = new StringBuilder(operand(args.get(0)));
                    for (int i = 1; i < args.size(); i++) {
                        b.append(' ').append(operator).append(' ').append(operand(args.get(i)));
                    }
                    return b.toString();
                }
            case POSTFIX:
                return operand(args.get(0)) + " " + operator;
            case ARRAY:
                return "[" + joinSql() + "]";
            case SUBSCRIPT:
                return operand(args.get(0)) + "[" + args.get(1).toSql() + "]";
            case IN:
                {
                    StringBuilder b = new StringBuilder(operand(args.get(0)));
                    b.append(' ').append(operator).append(" (");
                    for (int i = 1; i < args.size(); i++) {
                        b.append(i > 1 ? ", " : "").append(args.get(i).toSql());
                    }
                    return b.append(')').toString();
                }
            case PREFIX:
                {
                    Expr a = args.get(0);
                    String s = operand(a);
                    if (Character.isLetter(operator.charAt(0))) {
                        return operator + " " + s;
                    }
                    if (s.startsWith("-") || a instanceof Literal) {
                        s = "(" + s + ")";
                    }
                    return operator + s;
                }
            case TUPLE:
                if (args.size() == 1) {
                    return "tuple(" + args.get(0).toSql() + ")";
                }
                if (args.isEmpty()) {
                    return "tuple()";
                }
                return "(" + joinSql() + ")";
            default:
                return (operator != null ? operator : name) + "(" + joinSql() + ")";
        }
    }

    private static String operand(Expr e) {
        if (e instanceof FunctionCall f
                && (f.form == Form.INFIX
                        || f.form == Form.PREFIX
                        || f.form == Form.POSTFIX
                        || f.form == Form.IN)) {
            return "(" + f.toSql() + ")";
        }
        if (e instanceof FunctionCall f && f.form == Form.IMPLICIT) {
            return operand(f.args.get(0));
        }
        return e.toSql();
    }

    private String joinSql() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(args.get(i).toSql());
        }
        return b.toString();
    }

    @Override
    public String columnName() {
        if (form == Form.IMPLICIT) {
            return args.get(0).columnName();
        }
        if (form == Form.ARRAY && args.stream().allMatch(a -> a instanceof Literal)) {
            // an array of literals is one literal: ClickHouse names it as written
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < args.size(); i++) {
                b.append(i > 0 ? ", " : "").append(args.get(i).columnName());
            }
            return b.append(']').toString();
        }
        if (form == Form.IN) {
            // ClickHouse's name: in(x, (1, 2)), or in(x, 1) for one element
            StringBuilder b = new StringBuilder(name).append('(');
            b.append(args.get(0).columnName()).append(", ");
            if (args.size() != 2) {
                b.append('(');
            }
            for (int i = 1; i < args.size(); i++) {
                b.append(i > 1 ? ", " : "").append(args.get(i).columnName());
            }
            return b.append(args.size() != 2 ? "))" : ")").toString();
        }
        StringBuilder b = new StringBuilder();
        if (form != Form.TUPLE) {
            b.append(name);
        } else if (args.size() <= 1) {
            b.append("tuple");
        }
        b.append('(');
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(args.get(i).columnName());
        }
        return b.append(')').toString();
    }

    @Override
    public Column evaluate(Block block, EvaluationContext ctx) {
        int rows = block.rows();
        Column[] cols = new Column[args.size()];
        ByteColumn nullMap = null;
        byte[] nulls = null;
        for (int i = 0; i < cols.length; i++) {
            Column c = args.get(i).evaluate(block, ctx);
            if (unwrapNullable[i]) {
                NullableColumn nc = (NullableColumn) c;
                byte[] m = nc.nullMap().data();
                if (nulls == null) {
                    nullMap = new ByteColumn(rows);
                    nulls = nullMap.reserve(rows);
                    System.arraycopy(m, 0, nulls, 0, rows);
                    nullMap.setSize(rows);
                } else {
                    for (int r = 0; r < rows; r++) {
                        nulls[r] |= m[r];
                    }
                }
                c = nc.nested();
            }
            cols[i] = c;
        }
        Column result = kernel.apply(cols, rows, ctx);
        if (nullableResult) {
            if (nullMap == null) {
                nullMap = new ByteColumn(rows);
                nullMap.reserve(rows);
                nullMap.setSize(rows);
            }
            return new NullableColumn(nullMap, result);
        }
        return result;
    }

    /** The argument types with LowCardinality and (if unwrapped) Nullable removed. */
    static List<DataType> innerTypes(List<Expr> args, boolean unwrapNulls) {
        List<DataType> out = new ArrayList<>(args.size());
        for (Expr a : args) {
            DataType t = Vectors.stripLowCardinality(a.resultType());
            if (unwrapNulls && t instanceof NullableType n) {
                t = n.nested();
            }
            out.add(t);
        }
        return out;
    }
}
