package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.ddl.ColumnDeclarationParser.RawColumn;
import io.github.s3mergetree.engine.ddl.ProjectionClauseParser.RawProjection;
import io.github.s3mergetree.engine.ddl.SkipIndexClauseParser.RawIndex;
import io.github.s3mergetree.engine.ddl.TtlClauseParser.RawTtl;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Parses and validates a ClickHouse {@code CREATE TABLE} statement for a MergeTree-family table
 * into a {@link TableSchema}.
 *
 * <p>Accepted: {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] [db.]name (col Type [NULL|NOT NULL]
 * [DEFAULT|MATERIALIZED|ALIAS expr] [COMMENT '...'] [CODEC(...)] [PRIMARY KEY], ... [, PRIMARY KEY
 * expr]) ENGINE [=] MergeTree[()] | ReplacingMergeTree([ver[, is_deleted]]) | SummingMergeTree([col
 * | (cols)]) | CollapsingMergeTree(sign) | AggregatingMergeTree[()]}, then {@code PARTITION BY},
 * {@code PRIMARY KEY} and {@code ORDER BY} in any order, then {@code SETTINGS k = v, ...}, then
 * {@code COMMENT '...'}, and an optional {@code ;}. Identifiers may be back-quoted or
 * double-quoted; {@code --} and {@code /* *}{@code /} comments are skipped; keywords are
 * case-insensitive.
 *
 * <p>Validated as ClickHouse 26.7 validates: known types, settings and columns; engine parameters
 * (version column of a number or date type, UInt8 is_deleted, Int8 sign, existing sum columns not
 * in the sorting key; VersionedCollapsingMergeTree's sign and version distinct); the primary key a
 * prefix of the sorting key; no Nullable key columns unless {@code allow_nullable_key}; no constant
 * or duplicate sorting key elements; no floating-point partition key; no LowCardinality of
 * number-like types; a {@code SAMPLE BY} expression that is a primary key column of one unsigned
 * integer type (ClickHouse's {@code checkSampleExpression}). Without {@code ORDER BY} and {@code
 * PRIMARY KEY} the sorting key is empty, as in ClickHouse 26.7 ({@code
 * create_table_empty_primary_key_by_default}).
 *
 * <p>{@code Replicated…MergeTree} and {@code Shared…MergeTree} variants of the engines are read as
 * ClickHouse reads them (optional leading ZooKeeper path and replica name, string literals kept
 * verbatim with their macros); they write the same parts as the plain engine and keep their
 * replication in the {@link EngineDefinition}.
 *
 * <p>Rejected as {@link UnsupportedDdlException}: skip indexes other than {@code minmax} and {@code
 * set}, {@code TTL ... TO DISK|TO VOLUME|RECOMPRESS|GROUP BY}, {@code PROJECTION}, {@code
 * CONSTRAINT}, {@code EPHEMERAL}, column {@code STATISTICS} and {@code SETTINGS}, {@code ON
 * CLUSTER}, {@code AS ...}, other engines, and types or functions this engine does not implement.
 * All errors give the line and column of the offending construct.
 */
public final class DdlParser {
    private final DdlTokens in;
    private final TableKeyChecks keyChecks;
    private final SettingsClauseParser settingsParser;
    private final TtlClauseParser ttlParser;
    private final SkipIndexClauseParser indexParser;
    private final ColumnDeclarationParser columnParser;
    private final ProjectionClauseParser projectionParser;
    private final ProjectionBinder projectionBinder;
    private final EngineClauseParser engineParser;
    private final EngineParameterChecks engineChecks;

    private DdlParser(DdlTokens in) {
        this.in = in;
        this.keyChecks = new TableKeyChecks(in);
        this.settingsParser = new SettingsClauseParser(in);
        this.ttlParser = new TtlClauseParser(in);
        this.indexParser = new SkipIndexClauseParser(in);
        this.columnParser = new ColumnDeclarationParser(in);
        this.projectionParser = new ProjectionClauseParser(in);
        this.projectionBinder = new ProjectionBinder(in);
        this.engineParser = new EngineClauseParser(in);
        this.engineChecks = new EngineParameterChecks(in);
    }

    /**
     * Parses and validates {@code ddl} within ClickHouse's default limits ({@link
     * DdlLimits#DEFAULTS}).
     *
     * @throws DdlParseException if the statement is malformed or ClickHouse would reject it
     * @throws UnsupportedDdlException if it uses something this engine cannot honour
     */
    public static TableSchema parse(String ddl) {
        return parse(ddl, DdlLimits.DEFAULTS);
    }

    /**
     * Parses and validates {@code ddl} within {@code limits}: a statement larger than {@code
     * max_query_size} is refused before it is tokenized, a type or expression nested past {@code
     * max_parser_depth} / {@code max_ast_depth} before the parser recurses deeper, and a column
     * list longer than {@link DdlLimits#maxColumns()} at the first column too many.
     *
     * @throws DdlParseException if the statement is malformed, exceeds a limit or ClickHouse would
     *     reject it
     * @throws UnsupportedDdlException if it uses something this engine cannot honour
     */
    public static TableSchema parse(String ddl, DdlLimits limits) {
        checkSize(ddl, limits);
        return onParserStack(
                () -> {
                    List<Token> tokens;
                    try {
                        tokens = SqlLexer.tokenize(ddl);
                    } catch (ExprException e) {
                        throw new DdlTokens(ddl, List.of(), limits).translate(e);
                    }
                    return new DdlParser(new DdlTokens(ddl, tokens, limits)).statement();
                },
                limits);
    }

    /**
     * The stack the parser runs on. The parsers recurse about 6 frames per nested call or
     * parenthesis, so the 500 levels ClickHouse's default limits allow need about 1 MB in the
     * interpreter: more than a caller's thread may have left. The stack is reserved, not committed:
     * only what a statement uses takes memory.
     */
    private static final long PARSER_STACK_BYTES = 64L << 20;

    /**
     * Runs {@code parse} on a thread of its own with {@link #PARSER_STACK_BYTES} of stack, so the
     * depth the limits allow never depends on the caller's stack; a statement that still overflows
     * it (limits raised far above ClickHouse's) is refused in one line, not with a bare {@link
     * StackOverflowError}.
     */
    private static TableSchema onParserStack(Supplier<TableSchema> parse, DdlLimits limits) {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread parser =
                new Thread(
                        null,
                        () -> {
                            try {
                                result.set(parse.get());
                            } catch (StackOverflowError e) {
                                result.set(
                                        new DdlParseException(
                                                "The DDL is nested too deep for the parser's"
                                                        + " stack (max_parser_depth = "
                                                        + limits.maxParserDepth()
                                                        + ", max_ast_depth = "
                                                        + limits.maxAstDepth()
                                                        + ")",
                                                0,
                                                0));
                            } catch (RuntimeException | Error e) {
                                result.set(e);
                            }
                        },
                        "ddl-parser",
                        PARSER_STACK_BYTES);
        parser.setDaemon(true);
        parser.start();
        boolean interrupted = false;
        while (true) {
            try {
                parser.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // parsing is short: finish it, then restore the flag
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Object r = result.get();
        if (r instanceof RuntimeException e) {
            e.addSuppressed(new Exception("parsed on the ddl-parser thread, called from here"));
            throw e;
        }
        if (r instanceof Error e) {
            throw e;
        }
        return (TableSchema) r;
    }

    /** Refuses a statement of more than max_query_size bytes (UTF-8), without encoding it. */
    private static void checkSize(String ddl, DdlLimits limits) {
        long bytes = 0;
        for (int i = 0; i < ddl.length(); i++) {
            char c = ddl.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < ddl.length()
                    && Character.isLowSurrogate(ddl.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
            if (bytes > limits.maxQuerySize()) {
                throw tooLarge(
                        i + 1 < ddl.length() ? "more than " + limits.maxQuerySize() : "" + bytes,
                        limits);
            }
        }
    }

    /** The one-line refusal of a DDL of {@code size} bytes (a number or "more than N"). */
    static DdlParseException tooLarge(String size, DdlLimits limits) {
        return new DdlParseException(
                "Max query size exceeded: the DDL is "
                        + size
                        + " bytes, max_query_size is "
                        + limits.maxQuerySize()
                        + " bytes",
                0,
                0);
    }

    /** {@code name} in back quotes (always quoted, so keywords and odd names are safe). */
    static String quoteIdentifier(String name) {
        return SqlLexer.backQuote(name);
    }

    // ---------------------------------------------------------------------------------------
    // syntax

    private TableSchema statement() {
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
                analyze(
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

    // ---------------------------------------------------------------------------------------
    // semantics

    private TableSchema analyze(
            String database,
            String name,
            List<RawColumn> raw,
            List<RawIndex> rawIndexes,
            ExprParser.Parsed tablePrimaryKey,
            int tablePrimaryKeyAt,
            Token engineName,
            boolean engineParens,
            List<List<Token>> engineArgs,
            ExprParser.Parsed partitionBy,
            ExprParser.Parsed orderBy,
            ExprParser.Parsed primaryKeyClause,
            int primaryKeyClauseAt,
            ExprParser.Parsed sampleBy,
            int sampleByAt,
            List<RawTtl> rawTtl,
            MergeTreeSettings settings,
            String comment) {
        // column names and types
        Set<String> names = new HashSet<>();
        Map<String, DataType> types = new LinkedHashMap<>();
        for (RawColumn c : raw) {
            if (!names.add(c.nameToken.text())) {
                throw in.error(
                        "Cannot add column "
                                + c.nameToken.text()
                                + ": column with this name already exists",
                        c.nameToken.start());
            }
            if (c.type != null) {
                columnParser.checkLowCardinality(c.type, c.nameToken);
                types.put(c.nameToken.text(), c.type);
            }
        }
        List<ColumnDefinition> columns = new ArrayList<>();
        Map<String, DataType> known = new LinkedHashMap<>(types);
        for (RawColumn c : raw) {
            Expr def = null;
            DataType type = c.type;
            if (c.defaultExpr != null) {
                try {
                    if (type == null) {
                        def = c.defaultExpr.bind(known);
                        type = def.resultType();
                        known.put(c.nameToken.text(), type);
                    } else {
                        def = c.defaultExpr.bindDefault(known, type);
                    }
                } catch (ExprException e) {
                    throw in.translate(e);
                }
            }
            columns.add(
                    new ColumnDefinition(
                            c.nameToken.text(), type, c.defaultKind, def, c.codec, c.comment));
            // typed later (against the stored columns), after the table's TTL, as ClickHouse does
        }
        Map<String, DataType> keyColumns = new LinkedHashMap<>();
        for (ColumnDefinition c : columns) {
            if (c.isStored()) {
                keyColumns.put(c.name(), c.type());
            }
        }
        boolean insertable = false;
        for (ColumnDefinition c : columns) {
            insertable |=
                    c.defaultKind() == DefaultKind.NONE || c.defaultKind() == DefaultKind.DEFAULT;
        }
        if (!insertable) {
            throw in.error(
                    "Cannot CREATE table without insertable columns (all columns are"
                            + " MATERIALIZED or ALIAS)",
                    raw.get(0).nameToken.start());
        }
        boolean allowNullable = settings.allowNullableKey();

        // partition key
        KeyExpression partitionKey = KeyExpression.EMPTY;
        if (partitionBy != null) {
            partitionKey = keyChecks.bindKey(partitionBy, keyColumns, true);
            for (Expr e : partitionKey.elements()) {
                DataType rt = TableKeyChecks.stripWrappers(e.resultType());
                if (rt.kind() == TypeKind.FLOAT32 || rt.kind() == TypeKind.FLOAT64) {
                    throw in.error(
                            "Floating point partition key is not supported: " + e.columnName(),
                            partitionBy.start());
                }
                if (e.isConstant()) {
                    throw in.error(
                            "Partition key cannot contain constants: " + e.toSql(),
                            partitionBy.start());
                }
            }
            if (!allowNullable && TableKeyChecks.hasNullable(partitionKey)) {
                throw in.error(
                        "Partition key contains nullable columns, but merge tree setting"
                                + " `allow_nullable_key` is disabled",
                        partitionBy.start());
            }
        }

        // primary key sources
        KeyExpression explicitPrimary = null;
        int explicitPrimaryAt = -1;
        List<Expr> columnPrimary = new ArrayList<>();
        int columnPrimaryAt = -1;
        for (RawColumn c : raw) {
            if (c.primaryKey) {
                columnPrimary.add(
                        new io.github.s3mergetree.engine.expr.ColumnRef(
                                c.nameToken.text(),
                                keyColumns.getOrDefault(
                                        c.nameToken.text(), types.get(c.nameToken.text()))));
                if (columnPrimaryAt < 0) {
                    columnPrimaryAt = c.nameToken.start();
                }
            }
        }
        int sources =
                (primaryKeyClause != null ? 1 : 0)
                        + (tablePrimaryKey != null ? 1 : 0)
                        + (columnPrimary.isEmpty() ? 0 : 1);
        if (sources > 1) {
            int at = Math.max(primaryKeyClauseAt, Math.max(tablePrimaryKeyAt, columnPrimaryAt));
            throw in.error("Multiple primary keys are not allowed", at);
        }
        if (primaryKeyClause != null) {
            explicitPrimary = keyChecks.bindKey(primaryKeyClause, keyColumns, false);
            explicitPrimaryAt = primaryKeyClauseAt;
        } else if (tablePrimaryKey != null) {
            explicitPrimary = keyChecks.bindKey(tablePrimaryKey, keyColumns, false);
            explicitPrimaryAt = tablePrimaryKeyAt;
        } else if (!columnPrimary.isEmpty()) {
            explicitPrimary = new KeyExpression(columnPrimary);
            explicitPrimaryAt = columnPrimaryAt;
        }

        // sorting key
        KeyExpression sortingKey;
        int sortingAt;
        if (orderBy != null) {
            sortingKey = keyChecks.bindKey(orderBy, keyColumns, false);
            sortingAt = orderBy.start();
        } else if (explicitPrimary != null) {
            sortingKey = explicitPrimary;
            sortingAt = explicitPrimaryAt;
        } else {
            sortingKey = KeyExpression.EMPTY;
            sortingAt = -1;
        }
        keyChecks.checkSortingKey(sortingKey, "Sorting key", sortingAt, allowNullable);
        KeyExpression primaryKey = sortingKey;
        if (explicitPrimary != null) {
            if (explicitPrimary.size() > sortingKey.size()) {
                throw in.error(
                        "Primary key must be a prefix of the sorting key, but its length: "
                                + explicitPrimary.size()
                                + " is greater than the sorting key length: "
                                + sortingKey.size(),
                        explicitPrimaryAt);
            }
            for (int i = 0; i < explicitPrimary.size(); i++) {
                Expr p = explicitPrimary.elements().get(i);
                Expr s = sortingKey.elements().get(i);
                if (!p.equals(s)) {
                    throw in.error(
                            "Primary key must be a prefix of the sorting key, but the column"
                                    + " in the position "
                                    + i
                                    + " is "
                                    + s.columnName()
                                    + ", not "
                                    + p.columnName(),
                            explicitPrimaryAt);
                }
            }
            keyChecks.checkSortingKey(
                    explicitPrimary, "Primary key", explicitPrimaryAt, allowNullable);
            primaryKey = explicitPrimary;
        }

        EngineDefinition engine =
                engineParser.engine(
                        engineName, engineParens, engineArgs, columns, sortingKey, settings);
        List<SkipIndexDefinition> indexes = indexParser.skipIndexes(rawIndexes, keyColumns);
        KeyExpression samplingKey = KeyExpression.EMPTY;
        if (sampleBy != null) {
            samplingKey = keyChecks.bindKey(sampleBy, keyColumns, false);
            keyChecks.checkSamplingKey(samplingKey, primaryKey, settings, sampleByAt);
        }
        List<TtlRule> ttl = new ArrayList<>();
        boolean rowsTtl = false;
        for (RawTtl r : rawTtl) {
            Expr e = ttlParser.bindTtl(r.expression(), keyColumns, r.at());
            Expr where = null;
            if (r.where() != null) {
                where = ttlParser.bindTtlCondition(r.where(), keyColumns);
            } else if (rowsTtl) {
                throw in.error(
                        "More than one DELETE TTL expression without WHERE expression is not"
                                + " allowed",
                        r.at());
            } else {
                rowsTtl = true;
            }
            ttl.add(new TtlRule(e, java.util.Optional.ofNullable(where)));
        }
        Set<String> keyRequired = new HashSet<>(partitionKey.requiredColumns());
        keyRequired.addAll(sortingKey.requiredColumns());
        for (int i = 0; i < raw.size(); i++) {
            RawColumn c = raw.get(i);
            if (c.ttl == null) {
                continue;
            }
            Expr columnTtl = ttlParser.bindTtl(c.ttl, keyColumns, c.ttlAt);
            ColumnDefinition d = columns.get(i);
            columns.set(
                    i,
                    new ColumnDefinition(
                            d.name(),
                            d.type(),
                            d.defaultKind(),
                            d.defaultExpression().orElse(null),
                            d.codec().orElse(null),
                            d.comment().orElse(null),
                            columnTtl));
        }
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).ttl != null && keyRequired.contains(columns.get(i).name())) {
                throw in.error(
                        "Trying to set TTL for key column " + columns.get(i).name(),
                        raw.get(i).ttlAt);
            }
        }
        if (engine.kind() == EngineDefinition.Kind.AGGREGATING_MERGE_TREE
                && !settings.getBoolean("allow_dimensions_outside_sorting_key", false)) {
            keyChecks.checkDimensionsInSortingKey(
                    columns, sortingKey, partitionKey, engineName.start());
        }
        return new TableSchema(
                database,
                name,
                columns,
                indexes,
                engine,
                partitionKey,
                sortingKey,
                primaryKey,
                samplingKey,
                ttl,
                settings,
                comment);
    }
}
