package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.List;

/**
 * The token cursor every clause parser of a {@code CREATE TABLE} statement reads from, with the
 * error helpers that turn an offset into ClickHouse-style messages with line and column.
 *
 * <p>Why: the clause parsers ({@link CreateTableParser}, {@link ColumnDeclarationParser}, {@link
 * EngineClauseParser}, ...) share one position in one token list, as ClickHouse's parsers share
 * their {@code Pos}; the statement text, the tokens and the {@link DdlLimits} travel with it.
 */
final class DdlTokens {

    /** The depth of ClickHouse's CREATE tree above a column's type or DEFAULT expression. */
    static final int COLUMN_AST_DEPTH = 4;

    /** The depth of ClickHouse's CREATE tree above a table's key expression. */
    static final int KEY_AST_DEPTH = 2;

    final String text;
    final List<Token> tokens;
    final DdlLimits limits;

    /** The index in {@link #tokens} of the next token to read. */
    int pos;

    DdlTokens(String text, List<Token> tokens, DdlLimits limits) {
        this.text = text;
        this.tokens = tokens;
        this.limits = limits;
    }

    // ---------------------------------------------------------------------------------------
    // errors

    private int[] lineColumn(int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, offset - lineStart + 1};
    }

    DdlParseException error(String message, int offset) {
        if (offset < 0) {
            return new DdlParseException(message, 0, 0);
        }
        int[] lc = lineColumn(offset);
        return new DdlParseException(message, lc[0], lc[1]);
    }

    UnsupportedDdlException unsupported(String construct, String message, int offset) {
        if (offset < 0) {
            return new UnsupportedDdlException(construct, message, 0, 0);
        }
        int[] lc = lineColumn(offset);
        return new UnsupportedDdlException(construct, message, lc[0], lc[1]);
    }

    RuntimeException translate(ExprException e) {
        if (e.kind() == ExprException.Kind.UNSUPPORTED) {
            return unsupported(e.detail(), e.detail(), e.position());
        }
        return error(e.detail(), e.position());
    }

    RuntimeException translate(DataTypeParser.TypeParseException e) {
        if (e.detail().contains("not supported")) {
            return unsupported(e.detail(), e.detail(), e.position());
        }
        return error(e.detail(), e.position());
    }

    RuntimeException unexpected(Token k, String expected) {
        return error("Unexpected " + k.describe() + ", expected " + expected, k.start());
    }

    // ---------------------------------------------------------------------------------------
    // tokens

    Token peek() {
        return tokens.get(pos);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    Token next() {
        Token k = tokens.get(pos);
        if (k.type() != Type.EOF) {
            pos++;
        }
        return k;
    }

    boolean word(String w) {
        if (peek().isWord(w)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean words(String w1, String w2) {
        if (peek().isWord(w1) && peek(1).isWord(w2)) {
            pos += 2;
            return true;
        }
        return false;
    }

    Token expectWord(String w) {
        Token k = peek();
        if (!k.isWord(w)) {
            throw unexpected(k, w);
        }
        return next();
    }

    Token expect(Type type, String what) {
        Token k = peek();
        if (k.type() != type) {
            throw unexpected(k, what);
        }
        return next();
    }

    Token identifier(String what) {
        Token k = peek();
        if (!k.isIdentifier()) {
            throw unexpected(k, what);
        }
        return next();
    }

    /** Moves to the first token at or after {@code offset}. */
    void skipTo(int offset) {
        while (peek().type() != Type.EOF && peek().start() < offset) {
            pos++;
        }
    }

    /** The expression at the current token, {@code astDepth} deep in ClickHouse's CREATE tree. */
    ExprParser.Parsed expression(int astDepth) {
        try {
            ExprParser.Parsed p =
                    ExprParser.parsePrefix(
                            text,
                            tokens,
                            pos,
                            new ExprParser.Limits(
                                    limits.maxParserDepth(), limits.maxAstDepth(), astDepth));
            pos = p.nextTokenIndex();
            return p;
        } catch (ExprException e) {
            throw translate(e);
        }
    }
}
