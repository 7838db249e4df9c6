package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import java.util.List;
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
 *
 * <p>This class is the entry point: it bounds the statement's size and the parser's stack and hands
 * the tokens to {@link CreateTableParser}, which reads the statement's structure through a shared
 * {@link DdlTokens} cursor with one parser per clause family, as ClickHouse splits its parsers:
 * {@link ColumnDeclarationParser}, {@link SkipIndexClauseParser}, {@link ProjectionClauseParser},
 * {@link EngineClauseParser}, {@link TtlClauseParser} and {@link SettingsClauseParser}. {@link
 * CreateTableBinder} then binds the parts to the columns, with the checks of {@link
 * TableKeyChecks}, {@link EngineParameterChecks} and {@link ProjectionBinder}.
 */
public final class DdlParser {
    private DdlParser() {}

    /** Told the text of every statement {@link #parse(String, DdlLimits)} is asked to parse. */
    private static final List<java.util.function.Consumer<String>> PARSE_OBSERVERS =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * Tells {@code observer} the text of every statement parsed in this JVM until the returned
     * handle is closed: how tests check that a table's DDL is parsed once where it enters (a
     * builder, a command) and once per Flink task that re-creates it, not by every consumer (a
     * parse tokenizes and validates the whole statement on a thread of its own).
     */
    public static AutoCloseable observeParses(java.util.function.Consumer<String> observer) {
        PARSE_OBSERVERS.add(observer);
        return () -> PARSE_OBSERVERS.remove(observer);
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
        for (java.util.function.Consumer<String> o : PARSE_OBSERVERS) {
            o.accept(ddl);
        }
        checkSize(ddl, limits);
        return onParserStack(
                () -> {
                    List<Token> tokens;
                    try {
                        tokens = SqlLexer.tokenize(ddl);
                    } catch (ExprException e) {
                        throw new DdlTokens(ddl, List.of(), limits).translate(e);
                    }
                    return new CreateTableParser(new DdlTokens(ddl, tokens, limits)).statement();
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
}
