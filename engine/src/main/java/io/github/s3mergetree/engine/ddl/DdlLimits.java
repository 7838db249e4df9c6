package io.github.s3mergetree.engine.ddl;

/**
 * The bounds a {@code CREATE TABLE} statement must stay within before the engine parses it,
 * ClickHouse's own query limits under ClickHouse's names and with its defaults (ClickHouse 26.7,
 * {@code system.settings}).
 *
 * <p>Why: a DDL comes from a file or an option a user (or a script) supplies. Without bounds a 200
 * MB file is read and tokenized until the JVM runs out of memory, a type or expression nested
 * thousands of levels deep overflows the parser's stack, and a table of 50,000 columns starts a job
 * that spends minutes on its schema. ClickHouse refuses all of these before it creates anything,
 * with these limits; so does the engine, in one line naming the limit.
 *
 * <ul>
 *   <li>{@code max_query_size} (262144): the statement's size in bytes (UTF-8). ClickHouse: "Max
 *       query size exceeded".
 *   <li>{@code max_parser_depth} (1000): how deep the parser may recurse, 2 levels per function
 *       call, parenthesis, unary minus or CAST it is inside (at most 500 nested levels; deeper
 *       input is refused before the parser recurses further, so it cannot overflow the stack).
 *       ClickHouse's parser spends more per bare parenthesis and refuses more than about 198
 *       directly nested ones; here they count as calls do. ClickHouse: "Maximum parse depth (1000)
 *       exceeded".
 *   <li>{@code max_ast_depth} (1000): the depth of the syntax tree. ClickHouse's tree spends 2
 *       levels per nested type with arguments, function call or operator (the function and its
 *       argument list), and the statement's own nodes above a column type (4) or a table's key
 *       expression (2); so about 497 nested {@code Array(...)} levels or 498 nested calls fit, as
 *       in ClickHouse. ClickHouse: "AST is too deep. Maximum: 1000".
 *   <li>{@code max_ast_elements} (50000): the number of syntax tree nodes. ClickHouse has no other
 *       bound on a table's columns; every column declaration is at least 2 nodes (the declaration
 *       and its type), so the engine refuses more than {@code max_ast_elements / 2} columns
 *       (25,000; ClickHouse itself stops at 24,996 columns of a plain type, fewer with type
 *       arguments). ClickHouse: "AST is too big. Maximum: 50000".
 * </ul>
 *
 * @param maxQuerySize {@code max_query_size}: the most bytes a DDL may have
 * @param maxParserDepth {@code max_parser_depth}: the deepest parser recursion
 * @param maxAstDepth {@code max_ast_depth}: the deepest syntax tree
 * @param maxAstElements {@code max_ast_elements}: the most syntax tree nodes (bounds the columns)
 */
public record DdlLimits(int maxQuerySize, int maxParserDepth, int maxAstDepth, int maxAstElements) {

    /** ClickHouse's default {@code max_query_size}: 256 KiB. */
    public static final int DEFAULT_MAX_QUERY_SIZE = 262_144;

    /** ClickHouse's default {@code max_parser_depth}. */
    public static final int DEFAULT_MAX_PARSER_DEPTH = 1000;

    /** ClickHouse's default {@code max_ast_depth}. */
    public static final int DEFAULT_MAX_AST_DEPTH = 1000;

    /** ClickHouse's default {@code max_ast_elements}. */
    public static final int DEFAULT_MAX_AST_ELEMENTS = 50_000;

    /** ClickHouse's defaults. */
    public static final DdlLimits DEFAULTS =
            new DdlLimits(
                    DEFAULT_MAX_QUERY_SIZE,
                    DEFAULT_MAX_PARSER_DEPTH,
                    DEFAULT_MAX_AST_DEPTH,
                    DEFAULT_MAX_AST_ELEMENTS);

    /** Refuses a limit below 1, naming it. */
    public DdlLimits {
        positive("max_query_size", maxQuerySize);
        positive("max_parser_depth", maxParserDepth);
        positive("max_ast_depth", maxAstDepth);
        positive("max_ast_elements", maxAstElements);
    }

    /** The most columns a table may declare: {@code max_ast_elements / 2} (see the class doc). */
    public int maxColumns() {
        return Math.max(1, maxAstElements / 2);
    }

    /** These limits with {@code max_query_size} = {@code bytes}. */
    public DdlLimits withMaxQuerySize(int bytes) {
        return new DdlLimits(bytes, maxParserDepth, maxAstDepth, maxAstElements);
    }

    /** These limits with {@code max_parser_depth} = {@code depth}. */
    public DdlLimits withMaxParserDepth(int depth) {
        return new DdlLimits(maxQuerySize, depth, maxAstDepth, maxAstElements);
    }

    /** These limits with {@code max_ast_depth} = {@code depth}. */
    public DdlLimits withMaxAstDepth(int depth) {
        return new DdlLimits(maxQuerySize, maxParserDepth, depth, maxAstElements);
    }

    /** These limits with {@code max_ast_elements} = {@code elements}. */
    public DdlLimits withMaxAstElements(int elements) {
        return new DdlLimits(maxQuerySize, maxParserDepth, maxAstDepth, elements);
    }

    private static void positive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + value);
        }
    }
}
