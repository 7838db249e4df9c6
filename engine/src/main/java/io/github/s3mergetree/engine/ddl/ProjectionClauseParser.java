package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses a projection declaration, {@code PROJECTION name (SELECT items [GROUP BY exprs] [ORDER BY
 * key])}, as ClickHouse's {@code ParserProjectionDeclaration} does, refusing the forms this engine
 * does not write (WHERE, WITH, WITH SETTINGS, aggregates other than count/sum/min/max).
 */
final class ProjectionClauseParser {

    private final DdlTokens in;

    ProjectionClauseParser(DdlTokens in) {
        this.in = in;
    }

    /** One item of a projection's SELECT list, before it is bound to the columns. */
    record RawProjectionItem(
            Token at, boolean star, String aggregate, ExprParser.Parsed expression, String alias) {}

    /** A projection as declared, before its expressions are bound to the columns. */
    static final class RawProjection {
        Token projectionWord;
        Token nameToken;
        List<RawProjectionItem> items = new ArrayList<>();
        List<ExprParser.Parsed> groupBy;
        List<ExprParser.Parsed> orderBy;
        int orderByAt = -1;
        String text;
    }

    /** The aggregate functions a projection may hold here (their states are written). */
    private static final Set<String> PROJECTION_AGGREGATES = Set.of("count", "sum", "min", "max");

    /**
     * Aggregate functions ClickHouse allows in a projection whose states this engine does not
     * write: refused as unsupported rather than as unknown functions.
     */
    private static final Set<String> OTHER_AGGREGATES =
            Set.of(
                    "avg",
                    "uniq",
                    "uniqexact",
                    "uniqcombined",
                    "uniqcombined64",
                    "uniqhll12",
                    "uniqtheta",
                    "any",
                    "anylast",
                    "anyheavy",
                    "argmin",
                    "argmax",
                    "grouparray",
                    "groupuniqarray",
                    "groupbitand",
                    "groupbitor",
                    "groupbitxor",
                    "summap",
                    "minmap",
                    "maxmap",
                    "quantile",
                    "quantiles",
                    "quantileexact",
                    "quantiletdigest",
                    "quantiletiming",
                    "median",
                    "stddevpop",
                    "stddevsamp",
                    "varpop",
                    "varsamp",
                    "topk",
                    "sumwithoverflow",
                    "avgweighted",
                    "corr",
                    "covarpop",
                    "covarsamp",
                    "entropy",
                    "histogram",
                    "summapwithoverflow",
                    "countdistinct",
                    "singlevalueornull",
                    "first_value",
                    "last_value");

    /**
     * {@code name (SELECT items [GROUP BY exprs] [ORDER BY key])}, after the word PROJECTION.
     * {@code WHERE} (filtering projections), {@code WITH SETTINGS} and the {@code INDEX} form are
     * refused as unsupported.
     */
    RawProjection projection(Token projectionWord) {
        RawProjection x = new RawProjection();
        x.projectionWord = projectionWord;
        x.nameToken = in.identifier("a projection name");
        in.expect(Type.OPEN_PAREN, "'(' and the projection's SELECT");
        if (in.peek().isWord("WITH")) {
            throw in.unsupported(
                    "PROJECTION",
                    "WITH in projection " + x.nameToken.text() + " is not supported",
                    in.peek().start());
        }
        in.expectWord("SELECT");
        do {
            Token at = in.peek();
            if (at.type() == Type.STAR) {
                in.next();
                x.items.add(new RawProjectionItem(at, true, null, null, null));
                continue;
            }
            String lower = at.text().toLowerCase(Locale.ROOT);
            boolean call = at.type() == Type.BARE_WORD && in.peek(1).type() == Type.OPEN_PAREN;
            if (call && OTHER_AGGREGATES.contains(lower)) {
                throw in.unsupported(
                        "PROJECTION",
                        "Aggregate function "
                                + at.text()
                                + " in projection "
                                + x.nameToken.text()
                                + " is not supported: aggregating projections may use count,"
                                + " sum, min and max",
                        at.start());
            }
            String aggregate = null;
            ExprParser.Parsed argument = null;
            if (call && PROJECTION_AGGREGATES.contains(lower)) {
                aggregate = lower;
                in.pos += 2;
                if (in.peek().type() == Type.STAR && lower.equals("count")) {
                    in.next();
                } else if (in.peek().type() != Type.CLOSE_PAREN) {
                    argument = projectionExpression();
                }
                if (in.peek().type() == Type.COMMA) {
                    throw in.error(
                            "Aggregate function "
                                    + lower
                                    + " in projection "
                                    + x.nameToken.text()
                                    + " takes at most one argument",
                            in.peek().start());
                }
                in.expect(Type.CLOSE_PAREN, "')' after the aggregate function's argument");
                if (argument == null && !lower.equals("count")) {
                    throw in.error(
                            "Aggregate function " + lower + " requires one argument", at.start());
                }
            } else {
                argument = projectionExpression();
            }
            String alias = null;
            if (in.peek().isWord("AS")) {
                in.next();
                alias = in.identifier("an alias after AS").text();
            }
            x.items.add(new RawProjectionItem(at, false, aggregate, argument, alias));
        } while (in.peek().type() == Type.COMMA && in.next() != null);
        if (in.peek().isWord("WHERE")) {
            throw in.unsupported(
                    "PROJECTION",
                    "WHERE in projection " + x.nameToken.text() + " is not supported",
                    in.peek().start());
        }
        if (in.peek().isWord("GROUP") && in.peek(1).isWord("BY")) {
            in.pos += 2;
            x.groupBy = new ArrayList<>();
            do {
                x.groupBy.add(in.expression(DdlTokens.KEY_AST_DEPTH));
            } while (in.peek().type() == Type.COMMA && in.next() != null);
        }
        if (in.peek().isWord("ORDER") && in.peek(1).isWord("BY")) {
            x.orderByAt = in.peek().start();
            in.pos += 2;
            x.orderBy = new ArrayList<>();
            do {
                x.orderBy.add(in.expression(DdlTokens.KEY_AST_DEPTH));
            } while (in.peek().type() == Type.COMMA && in.next() != null);
        }
        x.text = in.text.substring(projectionWord.start(), in.peek().start());
        in.expect(Type.CLOSE_PAREN, "')' at the end of projection " + x.nameToken.text());
        if (in.peek().isWord("WITH") && in.peek(1).isWord("SETTINGS")) {
            throw in.unsupported(
                    "PROJECTION",
                    "WITH SETTINGS of projection " + x.nameToken.text() + " is not supported",
                    in.peek().start());
        }
        return x;
    }

    /**
     * The expression of a projection's SELECT item, ending before its {@code AS alias} (which the
     * expression parser would otherwise take for an alias inside the expression).
     */
    private ExprParser.Parsed projectionExpression() {
        int end = in.pos;
        int depth = 0;
        for (; end < in.tokens.size(); end++) {
            Token k = in.tokens.get(end);
            if (k.type() == Type.EOF) {
                break;
            }
            if (k.type() == Type.OPEN_PAREN || k.type() == Type.OPEN_BRACKET) {
                depth++;
            } else if (k.type() == Type.CLOSE_PAREN || k.type() == Type.CLOSE_BRACKET) {
                if (depth-- == 0) {
                    break;
                }
            } else if (depth == 0 && (k.type() == Type.COMMA || k.isWord("AS"))) {
                break;
            }
        }
        List<Token> upToAlias = new ArrayList<>(in.tokens.subList(0, end));
        int at = end < in.tokens.size() ? in.tokens.get(end).start() : in.text.length();
        upToAlias.add(new Token(Type.EOF, "", at, at));
        try {
            ExprParser.Parsed p =
                    ExprParser.parsePrefix(
                            in.text,
                            upToAlias,
                            in.pos,
                            new ExprParser.Limits(
                                    in.limits.maxParserDepth(),
                                    in.limits.maxAstDepth(),
                                    DdlTokens.COLUMN_AST_DEPTH));
            in.pos = p.nextTokenIndex();
            return p;
        } catch (ExprException e) {
            throw in.translate(e);
        }
    }
}
