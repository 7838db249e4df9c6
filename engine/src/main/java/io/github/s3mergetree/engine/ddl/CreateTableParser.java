package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.ddl.ColumnDeclarationParser.RawColumn;
import io.github.s3mergetree.engine.ddl.ProjectionClauseParser.RawProjection;
import io.github.s3mergetree.engine.ddl.SkipIndexClauseParser.RawIndex;
import io.github.s3mergetree.engine.ddl.TtlClauseParser.RawTtl;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The structure of a {@code CREATE TABLE} statement, as ClickHouse's {@code ParserCreateQuery} and
 * {@code ParserStorage} read it: the table name, the element list (columns, indexes, projections,
 * the table's primary key), the engine and the storage clauses in any order, SETTINGS and COMMENT;
 * each clause is read by its own parser, and the result bound by {@link CreateTableBinder}.
 */
final class CreateTableParser {

    private final DdlTokens in;
    private final ColumnDeclarationParser columnParser;
    private final SkipIndexClauseParser indexParser;
    private final ProjectionClauseParser projectionParser;
    private final EngineClauseParser engineParser;
    private final TtlClauseParser ttlParser;
    private final SettingsClauseParser settingsParser;
    private final CreateTableBinder binder;
    private final ProjectionBinder projectionBinder;

    CreateTableParser(DdlTokens in) {
        this.in = in;
        this.columnParser = new ColumnDeclarationParser(in);
        this.indexParser = new SkipIndexClauseParser(in);
        this.projectionParser = new ProjectionClauseParser(in);
        this.engineParser = new EngineClauseParser(in);
        this.ttlParser = new TtlClauseParser(in);
        this.settingsParser = new SettingsClauseParser(in);
        this.binder = new CreateTableBinder(in);
        this.projectionBinder = new ProjectionBinder(in);
    }

    /** The whole statement, from CREATE to the end of the text, as a validated schema. */
    TableSchema statement() {
        Token create = in.peek();
        if (create.isWord("ATTACH")) {
            throw in.unsupported(
                    "ATTACH", "ATTACH TABLE is not supported; use CREATE TABLE", create.start());
        }
        in.expectWord("CREATE");
        if (in.word("OR")) {
            in.expectWord("REPLACE");
        }
        Token k = in.peek();
        if (k.isWord("TEMPORARY")) {
            throw in.unsupported("TEMPORARY", "CREATE TEMPORARY TABLE is not supported", k.start());
        }
        if (!k.isWord("TABLE")) {
            throw in.error("Only CREATE TABLE is supported, found CREATE " + k.text(), k.start());
        }
        in.next();
        if (in.peek().isWord("IF")) {
            in.next();
            in.expectWord("NOT");
            in.expectWord("EXISTS");
        }
        Token first = in.identifier("a table name");
        String database = null;
        String name = first.text();
        if (in.peek().type() == Type.DOT) {
            in.next();
            database = name;
            name = in.identifier("a table name after the database name").text();
        }
        if (in.peek().isWord("UUID")) {
            in.next();
            in.expect(Type.STRING, "a UUID string");
        }
        if (in.peek().isWord("ON") && in.peek(1).isWord("CLUSTER")) {
            throw in.unsupported(
                    "ON CLUSTER",
                    "ON CLUSTER (distributed DDL) is not supported",
                    in.peek().start());
        }
        if (in.peek().isWord("AS")) {
            throw in.unsupported(
                    "AS",
                    "CREATE TABLE ... AS is not supported; list the columns",
                    in.peek().start());
        }
        in.expect(Type.OPEN_PAREN, "'(' and the column list");
        List<RawColumn> raw = new ArrayList<>();
        List<RawIndex> rawIndexes = new ArrayList<>();
        List<RawProjection> rawProjections = new ArrayList<>();
        ExprParser.Parsed tablePrimaryKey = null;
        int tablePrimaryKeyAt = -1;
        do {
            Token e = in.peek();
            if (e.isWord("PRIMARY") && in.peek(1).isWord("KEY")) {
                if (tablePrimaryKey != null) {
                    throw in.error("Multiple primary keys are not allowed", e.start());
                }
                in.pos += 2;
                tablePrimaryKeyAt = e.start();
                tablePrimaryKey = in.expression(DdlTokens.COLUMN_AST_DEPTH);
            } else if (isElement("INDEX")) {
                in.next();
                rawIndexes.add(indexParser.skipIndex(e));
            } else if (isElement("PROJECTION")) {
                in.next();
                rawProjections.add(projectionParser.projection(e));
            } else if (isElement("CONSTRAINT")) {
                throw in.unsupported(
                        "CONSTRAINT", "Constraints (CONSTRAINT) are not supported", e.start());
            } else {
                if (raw.size() >= in.limits.maxColumns()) {
                    throw in.error(
                            "AST is too big. Maximum: "
                                    + in.limits.maxAstElements()
                                    + " (max_ast_elements): more than "
                                    + in.limits.maxColumns()
                                    + " columns (every column declaration is at least 2 elements)",
                            e.start());
                }
                raw.addAll(columnParser.flattenNested(columnParser.column()));
            }
            if (in.peek().type() == Type.COMMA && in.peek(1).type() == Type.CLOSE_PAREN) {
                in.next(); // a trailing comma, as ClickHouse allows
            }
        } while (in.peek().type() == Type.COMMA && in.next() != null);
        in.expect(Type.CLOSE_PAREN, "',' or ')' in the column list");
        if (in.peek().isWord("AS")) {
            throw in.unsupported(
                    "AS", "CREATE TABLE ... AS SELECT is not supported", in.peek().start());
        }

        // ENGINE
        Token engineWord = in.peek();
        if (!engineWord.isWord("ENGINE")) {
            throw in.unexpected(engineWord, "ENGINE");
        }
        in.next();
        if (in.peek().type() == Type.EQUALS) {
            in.next();
        }
        Token engineName = in.identifier("an engine name");
        List<List<Token>> engineArgs = new ArrayList<>();
        boolean engineParens = false;
        if (in.peek().type() == Type.OPEN_PAREN) {
            engineParens = true;
            engineArgs = engineParser.engineArguments();
        }

        // storage clauses
        ExprParser.Parsed partitionBy = null;
        ExprParser.Parsed orderBy = null;
        ExprParser.Parsed primaryKeyClause = null;
        int primaryKeyClauseAt = -1;
        ExprParser.Parsed sampleBy = null;
        int sampleByAt = -1;
        List<RawTtl> ttl = null;
        MergeTreeSettings settings = MergeTreeSettings.DEFAULTS;
        String comment = null;
        while (true) {
            Token c = in.peek();
            if (c.isWord("PARTITION") && in.peek(1).isWord("BY")) {
                if (partitionBy != null) {
                    throw in.error("PARTITION BY is specified twice", c.start());
                }
                in.pos += 2;
                partitionBy = in.expression(DdlTokens.KEY_AST_DEPTH);
            } else if (c.isWord("ORDER") && in.peek(1).isWord("BY")) {
                if (orderBy != null) {
                    throw in.error("ORDER BY is specified twice", c.start());
                }
                in.pos += 2;
                orderBy = in.expression(DdlTokens.KEY_AST_DEPTH);
            } else if (c.isWord("PRIMARY") && in.peek(1).isWord("KEY")) {
                if (primaryKeyClause != null) {
                    throw in.error("PRIMARY KEY is specified twice", c.start());
                }
                in.pos += 2;
                primaryKeyClauseAt = c.start();
                primaryKeyClause = in.expression(DdlTokens.KEY_AST_DEPTH);
            } else if (c.isWord("SAMPLE") && in.peek(1).isWord("BY")) {
                if (sampleBy != null) {
                    throw in.error("SAMPLE BY is specified twice", c.start());
                }
                in.pos += 2;
                sampleByAt = c.start();
                sampleBy = in.expression(DdlTokens.KEY_AST_DEPTH);
            } else if (c.isWord("TTL")) {
                if (ttl != null) {
                    throw in.error("TTL is specified twice", c.start());
                }
                in.next();
                ttl = ttlParser.tableTtl();
            } else {
                break;
            }
        }
        if (in.peek().isWord("SETTINGS")) {
            in.next();
            settings = settingsParser.settings();
        }
        if (in.peek().isWord("COMMENT")) {
            in.next();
            comment = in.expect(Type.STRING, "a string literal after COMMENT").text();
            if (in.peek().isWord("SETTINGS")) {
                throw in.unsupported(
                        "SETTINGS",
                        "SETTINGS after COMMENT are query settings, which are not supported",
                        in.peek().start());
            }
        }
        if (in.peek().type() == Type.SEMICOLON) {
            in.next();
        }
        Token end = in.peek();
        if (end.type() != Type.EOF) {
            if (end.isWord("ORDER") || end.isWord("PARTITION") || end.isWord("PRIMARY")) {
                throw in.error(
                        end.text().toUpperCase(Locale.ROOT)
                                + " must come before SETTINGS and COMMENT",
                        end.start());
            }
            throw in.unexpected(end, "the end of the statement");
        }

        TableSchema analyzed =
                binder.analyze(
                        database,
                        name,
                        raw,
                        rawIndexes,
                        tablePrimaryKey,
                        tablePrimaryKeyAt,
                        engineName,
                        engineParens,
                        engineArgs,
                        partitionBy,
                        orderBy,
                        primaryKeyClause,
                        primaryKeyClauseAt,
                        sampleBy,
                        sampleByAt,
                        ttl == null ? List.of() : ttl,
                        settings,
                        comment);
        return analyzed.withProjections(projectionBinder.projections(rawProjections, analyzed));
    }

    /**
     * Whether the element starting here is {@code word} introducing a declaration (e.g. {@code
     * INDEX i a TYPE minmax}) rather than a column named like the keyword.
     */
    private boolean isElement(String word) {
        if (!in.peek().isWord(word) || !in.peek(1).isIdentifier()) {
            return false;
        }
        Token after = in.peek(2);
        if (after.type() == Type.COMMA || after.type() == Type.CLOSE_PAREN) {
            return false;
        }
        switch (word) {
            case "INDEX":
                // INDEX name expr TYPE ...: look for TYPE before the end of the element
                {
                    int depth = 0;
                    for (int i = in.pos + 2; i < in.tokens.size(); i++) {
                        Token k = in.tokens.get(i);
                        if (k.type() == Type.OPEN_PAREN) {
                            depth++;
                        } else if (k.type() == Type.CLOSE_PAREN) {
                            if (depth-- == 0) {
                                return false;
                            }
                        } else if (depth == 0 && k.type() == Type.COMMA) {
                            return false;
                        } else if (depth == 0 && k.isWord("TYPE")) {
                            return true;
                        } else if (k.type() == Type.EOF) {
                            return false;
                        }
                    }
                    return false;
                }
            case "PROJECTION":
                return after.type() == Type.OPEN_PAREN;
            default:
                return after.isWord("CHECK") || after.isWord("ASSUME");
        }
    }
}
