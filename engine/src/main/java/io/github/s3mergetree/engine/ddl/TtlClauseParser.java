package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A table's {@code TTL} clause and a column's TTL: parses the elements ({@code expr [DELETE] [WHERE
 * cond]}, refusing moves, {@code RECOMPRESS} and {@code GROUP BY}) and types them as ClickHouse's
 * {@code TTLDescription} does (a Date/DateTime result, reading a column, deterministic).
 */
final class TtlClauseParser {

    private final DdlTokens in;

    TtlClauseParser(DdlTokens in) {
        this.in = in;
    }

    /** One parsed element of a table's TTL clause, not yet typed. */
    record RawTtl(ExprParser.Parsed expression, int at, ExprParser.Parsed where) {}

    /**
     * The elements of a table's {@code TTL} clause: {@code expr [DELETE] [WHERE cond]}, comma
     * separated. Moving parts ({@code TO DISK}, {@code TO VOLUME}), {@code RECOMPRESS} and {@code
     * GROUP BY} rollups are refused: the engine writes to one store with the table's codecs and
     * does not aggregate in merges.
     */
    List<RawTtl> tableTtl() {
        List<RawTtl> out = new ArrayList<>();
        while (true) {
            int at = in.peek().start();
            ExprParser.Parsed e = in.expression(DdlTokens.KEY_AST_DEPTH);
            Token k = in.peek();
            if (k.isWord("DELETE")) {
                in.next();
            } else if (k.isWord("TO")
                    && (in.peek(1).isWord("DISK") || in.peek(1).isWord("VOLUME"))) {
                throw in.unsupported(
                        "TTL TO " + in.peek(1).text().toUpperCase(Locale.ROOT),
                        "TTL ... TO "
                                + in.peek(1).text().toUpperCase(Locale.ROOT)
                                + " is not supported: the engine keeps a table's parts in one"
                                + " store and does not move them",
                        k.start());
            } else if (k.isWord("RECOMPRESS")) {
                throw in.unsupported(
                        "TTL RECOMPRESS",
                        "TTL ... RECOMPRESS is not supported: parts keep the table's codecs",
                        k.start());
            }
            ExprParser.Parsed where = null;
            if (in.peek().isWord("WHERE")) {
                in.next();
                where = in.expression(DdlTokens.KEY_AST_DEPTH);
            }
            if (in.peek().isWord("GROUP") && in.peek(1).isWord("BY")) {
                throw in.unsupported(
                        "TTL GROUP BY",
                        "TTL ... GROUP BY is not supported: merges do not aggregate expired rows",
                        in.peek().start());
            }
            out.add(new RawTtl(e, at, where));
            if (in.peek().type() != Type.COMMA) {
                return out;
            }
            in.next();
        }
    }

    /**
     * Types a TTL expression with ClickHouse's checks, in its order: it must read a column, call no
     * non-deterministic function and be a Date, Date32, DateTime or DateTime64.
     */
    Expr bindTtl(ExprParser.Parsed p, Map<String, DataType> columns, int at) {
        Expr e;
        try {
            e = p.bind(columns);
        } catch (ExprException x) {
            throw in.translate(x);
        }
        if (e.requiredColumns().isEmpty()) {
            throw in.error(
                    "TTL expression "
                            + e.toSql()
                            + " does not depend on any of the columns of the"
                            + " table",
                    at);
        }
        String nonDeterministic = nonDeterministicFunction(e);
        if (nonDeterministic != null) {
            throw in.error(
                    "TTL expression cannot contain non-deterministic functions, but contains"
                            + " function "
                            + nonDeterministic,
                    at);
        }
        TypeKind k = e.resultType().kind();
        if (k != TypeKind.DATE
                && k != TypeKind.DATE32
                && k != TypeKind.DATETIME
                && k != TypeKind.DATETIME64) {
            throw in.error(
                    "TTL expression result column should have Date, Date32, DateTime or DateTime64"
                            + " type, but has "
                            + e.resultType().name(),
                    at);
        }
        return e;
    }

    /** Types a TTL {@code WHERE} condition: any number is true when it is not zero. */
    Expr bindTtlCondition(ExprParser.Parsed p, Map<String, DataType> columns) {
        Expr e;
        try {
            e = p.bind(columns);
        } catch (ExprException x) {
            throw in.translate(x);
        }
        DataType t = TableKeyChecks.stripWrappers(e.resultType());
        boolean numeric =
                switch (t.kind()) {
                    case UINT8,
                            UINT16,
                            UINT32,
                            UINT64,
                            INT8,
                            INT16,
                            INT32,
                            INT64,
                            BOOL,
                            FLOAT32,
                            FLOAT64,
                            DATE,
                            DATE32,
                            DATETIME ->
                            true;
                    default -> false;
                };
        if (!numeric) {
            throw in.unsupported(
                    "TTL WHERE",
                    "TTL ... WHERE "
                            + e.toSql()
                            + ": a condition of type "
                            + e.resultType().name()
                            + " is not supported (a number or a date, true when not zero)",
                    p.start());
        }
        return e;
    }

    /** The first non-deterministic function ({@code now}, {@code today}) {@code e} calls. */
    private static String nonDeterministicFunction(Expr e) {
        if (e instanceof io.github.s3mergetree.engine.expr.FunctionCall f) {
            if (f.name().equals("now") || f.name().equals("now64") || f.name().equals("today")) {
                return f.name();
            }
            for (Expr a : f.arguments()) {
                String n = nonDeterministicFunction(a);
                if (n != null) {
                    return n;
                }
            }
        }
        return null;
    }
}
