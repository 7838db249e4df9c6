package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One column declaration of a {@code CREATE TABLE}, as ClickHouse's {@code ParserColumnDeclaration}
 * reads it: name, type (or {@code Nested(...)}, flattened), {@code [NOT] NULL}, {@code
 * DEFAULT|MATERIALIZED|ALIAS}, {@code COMMENT}, {@code CODEC}, {@code TTL} and {@code PRIMARY KEY};
 * and the check ClickHouse makes of a column's type (no LowCardinality of number-like types).
 */
final class ColumnDeclarationParser {

    private final DdlTokens in;

    ColumnDeclarationParser(DdlTokens in) {
        this.in = in;
    }

    private static final Set<String> COLUMN_KEYWORDS =
            Set.of(
                    "DEFAULT",
                    "MATERIALIZED",
                    "ALIAS",
                    "EPHEMERAL",
                    "NULL",
                    "NOT",
                    "COMMENT",
                    "CODEC",
                    "TTL",
                    "PRIMARY",
                    "STATISTICS",
                    "SETTINGS",
                    "AUTO_INCREMENT");

    /** A column as declared, before typing of defaults. */
    static final class RawColumn {
        Token nameToken;
        DataType type;

        /** {@code Nested(a T, b U)}: the elements, flattened into {@code name.a Array(T)}, ... */
        List<Token> nestedNames;

        List<DataType> nestedTypes;
        DefaultKind defaultKind = DefaultKind.NONE;
        ExprParser.Parsed defaultExpr;
        String codec;
        String comment;
        boolean primaryKey;
        ExprParser.Parsed ttl;
        int ttlAt = -1;
    }

    /**
     * {@code Nested(name Type, ...)}: the element names and types. ClickHouse (with {@code
     * flatten_nested = 1}, its default) stores it as one {@code Array(Type)} column per element,
     * named {@code column.name}, which {@link #flattenNested} makes of it.
     */
    private void nested(RawColumn c) {
        in.next();
        in.expect(Type.OPEN_PAREN, "'(' after Nested");
        c.nestedNames = new ArrayList<>();
        c.nestedTypes = new ArrayList<>();
        do {
            Token element = in.identifier("a Nested element name");
            Token k = in.peek();
            if (k.type() == Type.BARE_WORD
                    && k.text().equals("Nested")
                    && in.peek(1).type() == Type.OPEN_PAREN) {
                throw in.unsupported(
                        "Nested",
                        "Column "
                                + c.nameToken.text()
                                + ": a Nested inside a Nested (element "
                                + element.text()
                                + ") is not supported by this engine",
                        k.start());
            }
            try {
                DataTypeParser.Result r = DataTypeParser.parsePrefix(in.text, k.start());
                in.skipTo(r.end());
                c.nestedNames.add(element);
                c.nestedTypes.add(r.type());
            } catch (DataTypeParser.TypeParseException e) {
                throw in.translate(e);
            }
        } while (in.peek().type() == Type.COMMA && in.next() != null);
        in.expect(Type.CLOSE_PAREN, "',' or ')' in Nested(...)");
        c.type = new ArrayType(new TupleType(namesOf(c.nestedNames), c.nestedTypes));
    }

    private static List<String> namesOf(List<Token> tokens) {
        List<String> out = new ArrayList<>();
        for (Token t : tokens) {
            out.add(t.text());
        }
        return out;
    }

    /**
     * The columns of a declaration: itself, or for {@code n Nested(a T, b U)} the columns {@code
     * n.a Array(T)} and {@code n.b Array(U)}, each with the declaration's default, codec and
     * comment, as ClickHouse flattens it.
     */
    List<RawColumn> flattenNested(RawColumn c) {
        if (c.nestedNames == null) {
            return List.of(c);
        }
        if (!(c.type instanceof ArrayType)) {
            throw in.error(
                    "Column " + c.nameToken.text() + ": Nested cannot be inside Nullable",
                    c.nameToken.start());
        }
        List<RawColumn> out = new ArrayList<>();
        for (int i = 0; i < c.nestedNames.size(); i++) {
            Token e = c.nestedNames.get(i);
            RawColumn f = new RawColumn();
            f.nameToken =
                    new Token(
                            Type.QUOTED_IDENTIFIER,
                            c.nameToken.text() + "." + e.text(),
                            c.nameToken.start(),
                            c.nameToken.end());
            f.type = new ArrayType(c.nestedTypes.get(i));
            f.defaultKind = c.defaultKind;
            f.defaultExpr = c.defaultExpr;
            f.codec = c.codec;
            f.comment = c.comment;
            f.primaryKey = c.primaryKey;
            out.add(f);
        }
        return out;
    }

    RawColumn column() {
        RawColumn c = new RawColumn();
        c.nameToken = in.identifier("a column name or ')'");
        Token k = in.peek();
        boolean modifier =
                k.type() == Type.BARE_WORD
                        && COLUMN_KEYWORDS.contains(k.text().toUpperCase(Locale.ROOT));
        if (k.type() == Type.BARE_WORD
                && k.text().equals("Nested")
                && in.peek(1).type() == Type.OPEN_PAREN) {
            nested(c);
        } else if (!modifier && k.type() != Type.COMMA && k.type() != Type.CLOSE_PAREN) {
            try {
                DataTypeParser.Result r =
                        DataTypeParser.parsePrefix(
                                in.text,
                                k.start(),
                                in.limits.maxAstDepth(),
                                DdlTokens.COLUMN_AST_DEPTH);
                c.type = r.type();
                in.skipTo(r.end());
            } catch (DataTypeParser.TypeParseException e) {
                throw in.translate(e);
            }
        }
        Token n = in.peek();
        boolean nullModifier = false;
        boolean notNull = false;
        if (n.isWord("NULL")) {
            in.next();
            nullModifier = true;
        } else if (n.isWord("NOT") && in.peek(1).isWord("NULL")) {
            in.pos += 2;
            notNull = true;
        }
        if (nullModifier || notNull) {
            if (c.type == null) {
                throw in.error(
                        "Column " + c.nameToken.text() + ": [NOT] NULL needs a data type",
                        n.start());
            }
            if (c.type instanceof NullableType) {
                throw in.error("Can't use [NOT] NULL modifier with Nullable type", n.start());
            }
            if (nullModifier) {
                try {
                    c.type = new NullableType(c.type);
                } catch (IllegalArgumentException e) {
                    throw in.error(e.getMessage(), n.start());
                }
            }
        }
        Token d = in.peek();
        if (d.isWord("DEFAULT") || d.isWord("MATERIALIZED") || d.isWord("ALIAS")) {
            in.next();
            c.defaultKind = DefaultKind.valueOf(d.text().toUpperCase(Locale.ROOT));
            c.defaultExpr = in.expression(DdlTokens.COLUMN_AST_DEPTH);
        } else if (d.isWord("EPHEMERAL")) {
            throw in.unsupported("EPHEMERAL", "EPHEMERAL columns are not supported", d.start());
        } else if (d.isWord("AUTO_INCREMENT")) {
            throw in.unsupported("AUTO_INCREMENT", "AUTO_INCREMENT is not supported", d.start());
        }
        if (c.type == null && c.defaultExpr == null) {
            throw in.error(
                    "Column "
                            + c.nameToken.text()
                            + " has neither a data type nor a default expression",
                    c.nameToken.start());
        }
        if (in.peek().isWord("COMMENT")) {
            in.next();
            c.comment = in.expect(Type.STRING, "a string literal after COMMENT").text();
        }
        if (in.peek().isWord("CODEC")) {
            Token codec = in.next();
            Token open = in.expect(Type.OPEN_PAREN, "'(' after CODEC");
            int depth = 0;
            while (true) {
                Token x = in.next();
                if (x.type() == Type.EOF) {
                    throw in.error("Unterminated CODEC(...)", codec.start());
                }
                if (x.type() == Type.OPEN_PAREN) {
                    depth++;
                } else if (x.type() == Type.CLOSE_PAREN) {
                    if (depth-- == 0) {
                        c.codec = in.text.substring(open.end(), x.start()).trim();
                        break;
                    }
                }
            }
            if (c.codec.isEmpty()) {
                throw in.error("CODEC() needs at least one codec", codec.start());
            }
        }
        Token x = in.peek();
        if (x.isWord("STATISTICS")) {
            throw in.unsupported("STATISTICS", "Column STATISTICS are not supported", x.start());
        }
        if (x.isWord("TTL")) {
            in.next();
            c.ttlAt = x.start();
            c.ttl = in.expression(DdlTokens.COLUMN_AST_DEPTH);
        }
        if (x.isWord("SETTINGS")) {
            throw in.unsupported("SETTINGS", "Column-level SETTINGS are not supported", x.start());
        }
        if (x.isWord("PRIMARY") && in.peek(1).isWord("KEY")) {
            in.pos += 2;
            c.primaryKey = true;
        }
        Token after = in.peek();
        if (after.isWord("COMMENT") && c.codec != null) {
            throw in.error("COMMENT must come before CODEC in a column declaration", after.start());
        }
        if (after.type() != Type.COMMA && after.type() != Type.CLOSE_PAREN) {
            throw in.unexpected(
                    after, "',' or ')' after the declaration of column " + c.nameToken.text());
        }
        return c;
    }

    /** ClickHouse refuses LowCardinality of number-like types unless explicitly allowed. */
    void checkLowCardinality(DataType t, Token column) {
        if (t instanceof LowCardinalityType lc) {
            DataType inner = TableKeyChecks.stripWrappers(lc.nested());
            TypeKind k = inner.kind();
            if (k != TypeKind.STRING && k != TypeKind.FIXED_STRING && k != TypeKind.UUID) {
                throw in.error(
                        "Creating columns of type "
                                + t.name()
                                + " is prohibited by default"
                                + " due to expected negative impact on performance (ClickHouse's"
                                + " allow_suspicious_low_cardinality_types); column "
                                + column.text(),
                        column.start());
            }
        } else if (t instanceof NullableType n) {
            checkLowCardinality(n.nested(), column);
        } else if (t instanceof ArrayType a) {
            checkLowCardinality(a.element(), column);
        } else if (t instanceof MapType m) {
            checkLowCardinality(m.key(), column);
            checkLowCardinality(m.value(), column);
        } else if (t instanceof TupleType tt) {
            for (DataType e : tt.elements()) {
                checkLowCardinality(e, column);
            }
        }
    }
}
