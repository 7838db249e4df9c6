package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile DDL: the statement's size ({@code max_query_size}), its types' and expressions' nesting
 * ({@code max_ast_depth}, {@code max_parser_depth}) and its column count ({@code max_ast_elements})
 * are bounded as ClickHouse bounds them, refused in one line naming the limit (never a {@link
 * StackOverflowError} or {@link OutOfMemoryError}), and nothing is written. At the boundaries
 * ClickHouse itself (chDB 26.7) gives the same verdict.
 */
class DdlLimitsTest {

    @ChDbSession static ChDb chdb;

    @TempDir Path tmp;

    private static final AtomicInteger TABLES = new AtomicInteger();

    private static String table(String columns, String orderBy) {
        return "CREATE TABLE t"
                + TABLES.incrementAndGet()
                + " ("
                + columns
                + ") ENGINE = MergeTree ORDER BY "
                + orderBy;
    }

    /** A valid DDL of exactly {@code bytes} bytes (UTF-8): a statement and a trailing comment. */
    private static String ddlOfBytes(int bytes, String filler) {
        String base = table("x UInt8", "x") + " -- ";
        StringBuilder b = new StringBuilder(base);
        int size = base.getBytes(StandardCharsets.UTF_8).length;
        int fill = filler.getBytes(StandardCharsets.UTF_8).length;
        while (size + fill <= bytes) {
            b.append(filler);
            size += fill;
        }
        while (size < bytes) {
            b.append('c');
            size++;
        }
        return b.toString();
    }

    private static String nested(String open, String inner, String close, int levels) {
        return open.repeat(levels) + inner + close.repeat(levels);
    }

    /** ClickHouse's verdict on {@code ddl}: null if it creates the table, else its message. */
    private static String clickHouse(String ddl) {
        try {
            chdb.execute(ddl);
            return null;
        } catch (ChDbException e) {
            return e.getMessage();
        }
    }

    @Test
    void statementSizeIsBoundedByMaxQuerySizeInBytes() {
        String atLimit = ddlOfBytes(262_144, "c");
        assertThat(TableSchema.parse(atLimit).columns()).hasSize(1);
        assertThat(clickHouse(atLimit)).isNull();

        String over = ddlOfBytes(262_145, "c");
        assertThatThrownBy(() -> TableSchema.parse(over))
                .isInstanceOf(DdlParseException.class)
                .hasMessage(
                        "Max query size exceeded: the DDL is 262145 bytes, max_query_size is"
                                + " 262144 bytes");
        assertThat(clickHouse(over)).contains("Max query size exceeded");

        // bytes, not characters: 131,073 two-byte characters are 262,146 bytes
        String wide = ddlOfBytes(262_146, "é");
        assertThat(wide.length()).isLessThan(262_144);
        assertThatThrownBy(() -> TableSchema.parse(wide))
                .hasMessageContaining("max_query_size is 262144 bytes");
        assertThat(clickHouse(wide)).contains("Max query size exceeded");

        // a larger limit, as ClickHouse's setting
        assertThat(TableSchema.parse(over, DdlLimits.DEFAULTS.withMaxQuerySize(262_145)).columns())
                .hasSize(1);
        // a huge statement is refused from its first bytes past the limit
        String huge = ddlOfBytes(20_000_000, "c");
        assertThatThrownBy(() -> TableSchema.parse(huge))
                .hasMessage(
                        "Max query size exceeded: the DDL is more than 262144 bytes,"
                                + " max_query_size is 262144 bytes");
    }

    @Test
    void typeNestingIsBoundedByMaxAstDepthAsInClickHouse() {
        String deepest = table("x " + nested("Array(", "UInt8", ")", 497), "tuple()");
        assertThat(TableSchema.parse(deepest).columns()).hasSize(1);
        assertThat(clickHouse(deepest)).isNull();

        String tooDeep = table("x " + nested("Array(", "UInt8", ")", 498), "tuple()");
        assertThatThrownBy(() -> TableSchema.parse(tooDeep))
                .isInstanceOf(DdlParseException.class)
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)")
                .hasMessageContaining("at line 1");
        assertThat(clickHouse(tooDeep)).contains("AST is too deep. Maximum: 1000");

        String tuples = table("x " + nested("Tuple(a ", "UInt8", ")", 498), "tuple()");
        assertThatThrownBy(() -> TableSchema.parse(tuples))
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
        assertThat(clickHouse(tuples)).contains("AST is too deep");

        // within max_query_size a type may nest 35,000 levels: refused, no StackOverflowError
        String hostile = table("x " + nested("Array(", "UInt8", ")", 35_000), "tuple()");
        assertThat(hostile.length()).isLessThan(262_144);
        assertThatThrownBy(() -> TableSchema.parse(hostile))
                .isInstanceOf(DdlParseException.class)
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
        // a type name alone (columns.txt, a Native block's header) is bounded too
        assertThatThrownBy(
                        () ->
                                DataTypeParser.parse(
                                        nested("Nullable(Array(", "UInt8", "))", 100_000)))
                .isInstanceOf(DataTypeParser.TypeParseException.class)
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
    }

    @Test
    void expressionNestingIsBoundedByMaxAstDepthAsInClickHouse() {
        String deepestKey = table("x Int64", nested("negate(", "x", ")", 498));
        assertThat(TableSchema.parse(deepestKey).sortingKey().size()).isEqualTo(1);
        assertThat(clickHouse(deepestKey)).isNull();
        String tooDeepKey = table("x Int64", nested("negate(", "x", ")", 499));
        assertThatThrownBy(() -> TableSchema.parse(tooDeepKey))
                .isInstanceOf(DdlParseException.class)
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
        assertThat(clickHouse(tooDeepKey)).contains("AST is too deep. Maximum: 1000");

        // a left-deep chain of operators: no recursion while parsing, a deep tree all the same
        String sum498 = table("x UInt64, y UInt64 DEFAULT " + "1 + ".repeat(497) + "1", "x");
        assertThat(TableSchema.parse(sum498).columns()).hasSize(2);
        assertThat(clickHouse(sum498)).isNull();
        String sum499 = table("x UInt64, y UInt64 DEFAULT " + "1 + ".repeat(498) + "1", "x");
        assertThatThrownBy(() -> TableSchema.parse(sum499))
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
        assertThat(clickHouse(sum499)).contains("AST is too deep. Maximum: 1000");
        String longChain = table("x UInt64, y UInt64 DEFAULT " + "1 + ".repeat(60_000) + "1", "x");
        assertThatThrownBy(() -> TableSchema.parse(longChain))
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
    }

    @Test
    void expressionRecursionIsBoundedByMaxParserDepth() {
        for (String hostile :
                new String[] {
                    table("x Int64", nested("(", "x", ")", 120_000)),
                    table("x Int64", nested("negate(", "x", ")", 30_000)),
                    table("x Int64 DEFAULT " + "- ".repeat(120_000) + "x", "x"),
                    table("x Int64 DEFAULT " + nested("CAST(", "1", " AS Int64)", 15_000), "x"),
                }) {
            assertThat(hostile.length()).isLessThan(262_144);
            assertThatThrownBy(() -> TableSchema.parse(hostile))
                    .isInstanceOf(DdlParseException.class)
                    .hasMessageStartingWith(
                            "Maximum parse depth (1000) exceeded (max_parser_depth)");
        }
        // ClickHouse refuses this one too (its parser spends more on parentheses)
        assertThat(clickHouse(table("x Int64", nested("(", "x", ")", 600))))
                .contains("Maximum parse depth (1000) exceeded");
    }

    @Test
    void columnCountIsBoundedByMaxAstElements() {
        DdlLimits big = DdlLimits.DEFAULTS.withMaxQuerySize(10_000_000);
        assertThat(TableSchema.parse(columns(25_000), big).columns()).hasSize(25_000);
        assertThatThrownBy(() -> TableSchema.parse(columns(25_001), big))
                .isInstanceOf(DdlParseException.class)
                .hasMessageStartingWith(
                        "AST is too big. Maximum: 50000 (max_ast_elements): more than 25000"
                                + " columns");
        DdlLimits small = DdlLimits.DEFAULTS.withMaxAstElements(20);
        assertThat(TableSchema.parse(columns(10), small).columns()).hasSize(10);
        assertThatThrownBy(() -> TableSchema.parse(columns(11), small))
                .hasMessageStartingWith("AST is too big. Maximum: 20 (max_ast_elements)")
                .hasMessageContaining("(at line 1, column");
        // with max_query_size raised, ClickHouse refuses that many columns as well
        chdb.execute("SET max_query_size = 10000000");
        assertThat(clickHouse(columns(25_001))).contains("AST is too big. Maximum: 50000");
    }

    private static String columns(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i > 0 ? ", " : "").append('c').append(i).append(" UInt8");
        }
        return table(b.toString(), "tuple()");
    }

    @Test
    void ddlTextIsReadNoFurtherThanMaxQuerySize() throws Exception {
        // a source known to be larger is refused before a byte is read
        InputStream unread =
                new InputStream() {
                    @Override
                    public int read() {
                        throw new AssertionError("read a source known to be too large");
                    }
                };
        assertThatThrownBy(
                        () ->
                                DdlText.read(
                                        unread,
                                        209_715_200L,
                                        "DDL file big.sql",
                                        DdlLimits.DEFAULTS))
                .isInstanceOf(DdlParseException.class)
                .hasMessage(
                        "DDL file big.sql: Max query size exceeded: the DDL is 209715200 bytes,"
                                + " max_query_size is 262144 bytes");
        // a source of unknown size (a pipe) is read through max_query_size + 1 bytes only
        CountingEndlessInput endless = new CountingEndlessInput();
        assertThatThrownBy(() -> DdlText.read(endless, -1, "DDL from a pipe", DdlLimits.DEFAULTS))
                .hasMessage(
                        "DDL from a pipe: Max query size exceeded: the DDL is more than 262144"
                                + " bytes, max_query_size is 262144 bytes");
        assertThat(endless.served).isEqualTo(262_145);

        byte[] atLimit = ddlOfBytes(262_144, "é").getBytes(StandardCharsets.UTF_8);
        String text =
                DdlText.read(
                        new ByteArrayInputStream(atLimit), atLimit.length, "x", DdlLimits.DEFAULTS);
        assertThat(TableSchema.parse(text).columns()).hasSize(1);
        assertThatThrownBy(
                        () ->
                                DdlText.read(
                                        new ByteArrayInputStream(new byte[] {'C', (byte) 0xC3}),
                                        2,
                                        "DDL file bad.sql",
                                        DdlLimits.DEFAULTS))
                .hasMessage("DDL file bad.sql is not UTF-8 text");
    }

    /** An endless stream of spaces that counts the bytes it served. */
    private static final class CountingEndlessInput extends InputStream {
        long served;

        @Override
        public int read() {
            served++;
            return ' ';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) ' ');
            served += len;
            return len;
        }
    }

    @Test
    void anInvalidDdlCreatesNoTable() throws Exception {
        Path dir = tmp.resolve("table");
        String hostile = table("x " + nested("Array(", "UInt8", ")", 35_000), "tuple()");
        assertThatThrownBy(() -> MergeTreeTable.createIfAbsent(LocalParts.store(dir), hostile))
                .hasMessageStartingWith("AST is too deep. Maximum: 1000 (max_ast_depth)");
        assertThatThrownBy(
                        () ->
                                MergeTreeTable.createIfAbsent(
                                        LocalParts.store(dir), ddlOfBytes(300_000, "c")))
                .hasMessageStartingWith("Max query size exceeded");
        try (Stream<Path> written = Files.exists(dir) ? Files.walk(dir) : Stream.empty()) {
            assertThat(written.filter(Files::isRegularFile)).isEmpty();
        }
    }
}
