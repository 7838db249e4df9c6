package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Data-skipping indexes: parses {@code INDEX name expr TYPE type[(args)] [GRANULARITY k]} and binds
 * and validates each index as ClickHouse's {@code IndicesDescription} and {@code
 * MergeTreeIndex*::validate} do ({@link SkipIndexTypes}).
 */
final class SkipIndexClauseParser {

    private final DdlTokens in;
    private final TableKeyChecks keyChecks;

    SkipIndexClauseParser(DdlTokens in) {
        this.in = in;
        this.keyChecks = new TableKeyChecks(in);
    }

    /** A data-skipping index as declared, before its expression is bound to the columns. */
    static final class RawIndex {
        Token indexWord;
        Token nameToken;
        ExprParser.Parsed expression;
        Token typeToken;
        List<List<Token>> arguments = new ArrayList<>();
        boolean parentheses;
        Token granularityToken;
    }

    /** {@code name expr TYPE type[(args)] [GRANULARITY k]}, after the word INDEX. */
    RawIndex skipIndex(Token indexWord) {
        RawIndex x = new RawIndex();
        x.indexWord = indexWord;
        x.nameToken = in.identifier("an index name");
        x.expression = in.expression(DdlTokens.COLUMN_AST_DEPTH);
        in.expectWord("TYPE");
        x.typeToken = in.identifier("an index type");
        if (in.peek().type() == Type.OPEN_PAREN) {
            in.next();
            x.parentheses = true;
            if (in.peek().type() == Type.CLOSE_PAREN) {
                in.next();
            } else {
                while (true) {
                    List<Token> arg = new ArrayList<>();
                    int depth = 0;
                    while (true) {
                        Token k = in.peek();
                        if (k.type() == Type.EOF) {
                            throw in.unexpected(k, "')' after the index type's arguments");
                        }
                        if (depth == 0
                                && (k.type() == Type.COMMA || k.type() == Type.CLOSE_PAREN)) {
                            break;
                        }
                        if (k.type() == Type.OPEN_PAREN) {
                            depth++;
                        } else if (k.type() == Type.CLOSE_PAREN) {
                            depth--;
                        }
                        arg.add(in.next());
                    }
                    if (arg.isEmpty()) {
                        throw in.unexpected(in.peek(), "an index type argument");
                    }
                    x.arguments.add(arg);
                    if (in.next().type() == Type.CLOSE_PAREN) {
                        break;
                    }
                }
            }
        }
        if (in.peek().isWord("GRANULARITY")) {
            in.next();
            x.granularityToken = in.peek();
            if (x.granularityToken.type() == Type.MINUS) {
                in.next();
                Token n = in.expect(Type.NUMBER, "a number after GRANULARITY");
                throw in.error("Index GRANULARITY must be a positive integer.", n.start());
            }
            in.expect(Type.NUMBER, "a number after GRANULARITY");
        }
        return x;
    }

    /**
     * Binds every index expression to the stored columns and checks the index as ClickHouse's
     * {@code IndicesDescription} and index validators do ({@link SkipIndexTypes}).
     */
    List<SkipIndexDefinition> skipIndexes(List<RawIndex> raw, Map<String, DataType> columns) {
        List<SkipIndexDefinition> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (RawIndex x : raw) {
            String name = x.nameToken.text();
            if (!names.add(name)) {
                throw in.error(
                        "Duplicated index name "
                                + name
                                + " is not allowed. Please use a different index name.",
                        x.nameToken.start());
            }
            int granularity = 1;
            if (x.granularityToken != null) {
                long g;
                try {
                    g = Long.parseLong(x.granularityToken.text());
                } catch (NumberFormatException e) {
                    g = -1;
                }
                if (g <= 0 || g > Integer.MAX_VALUE) {
                    throw in.error(
                            "Index GRANULARITY must be a positive integer.",
                            x.granularityToken.start());
                }
                granularity = (int) g;
            }
            KeyExpression expression = keyChecks.bindKey(x.expression, columns, false);
            List<String> arguments = new ArrayList<>();
            for (List<Token> arg : x.arguments) {
                arguments.add(literalArgument(arg));
            }
            SkipIndexDefinition d =
                    new SkipIndexDefinition(
                            name,
                            expression,
                            x.typeToken.text(),
                            arguments,
                            x.parentheses,
                            granularity);
            try {
                SkipIndexTypes.validate(d);
            } catch (SkipIndexTypes.Refusal r) {
                if (r.unsupported()) {
                    throw in.unsupported("INDEX", r.getMessage(), x.indexWord.start());
                }
                throw in.error(r.getMessage(), x.typeToken.start());
            }
            out.add(d);
        }
        return out;
    }

    /**
     * An index type argument as its SQL text: a number (with its sign) or a quoted string; anything
     * else as written (the type's validation refuses what it does not take).
     */
    private String literalArgument(List<Token> arg) {
        if (arg.size() == 1 && arg.get(0).type() == Type.NUMBER) {
            return arg.get(0).text();
        }
        if (arg.size() == 2
                && arg.get(0).type() == Type.MINUS
                && arg.get(1).type() == Type.NUMBER) {
            return "-" + arg.get(1).text();
        }
        if (arg.size() == 1 && arg.get(0).type() == Type.STRING) {
            return SqlLexer.quoteString(arg.get(0).text());
        }
        return in.text.substring(arg.get(0).start(), arg.get(arg.size() - 1).end());
    }
}
