package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code INDEX name expr TYPE ... GRANULARITY k} in CREATE TABLE: parsed into {@link
 * SkipIndexDefinition}s, printed back as ClickHouse prints them, and refused where ClickHouse 26.x
 * (chDB) refuses them, with its message; the index types this engine does not write are refused
 * naming the index.
 */
class SkipIndexDdlTest {
    @ChDbSession static ChDb ch;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private static String table(String elements) {
        return "CREATE TABLE t (x Int32, s String, n Nullable(Int64), a Array(String), d32 Date32,"
                + " dec Decimal(10, 2), aa Array(Array(String)), m Map(String, UInt8)"
                + elements
                + ") ENGINE = MergeTree ORDER BY x";
    }

    @Test
    void indexesAreParsedWithClickHousesDefaultsAndPrintedAsItPrintsThem() {
        TableSchema t =
                TableSchema.parse(
                        table(
                                ", INDEX i1 s TYPE minmax, INDEX `i 2` (x, lower(s)) TYPE set(100)"
                                        + " GRANULARITY 4, INDEX i3 n TYPE set(0)"));
        assertThat(t.skipIndexes()).hasSize(3);
        SkipIndexDefinition i2 = t.skipIndexes().get(1);
        assertThat(i2.name()).isEqualTo("i 2");
        assertThat(i2.expression().columnNames()).containsExactly("x", "lower(s)");
        assertThat(i2.type()).isEqualTo("set");
        assertThat(i2.arguments()).containsExactly("100");
        assertThat(i2.granularity()).isEqualTo(4);
        // GRANULARITY 1 by default, as ClickHouse 26.x's SHOW CREATE TABLE says
        assertThat(t.skipIndexes().get(0).toSql())
                .isEqualTo("INDEX `i1` s TYPE minmax GRANULARITY 1");
        String sql = t.toCreateTableSql();
        assertThat(TableSchema.parse(sql)).isEqualTo(t);
        // ClickHouse accepts the canonical statement and has the same indexes
        String name = "p" + TABLES.incrementAndGet();
        ch.execute(sql.replaceFirst("CREATE TABLE `?t`?", "CREATE TABLE " + name));
        assertThat(
                        ch.query(
                                "SELECT name, expr, type_full, granularity FROM"
                                        + " system.data_skipping_indices WHERE table = '"
                                        + name
                                        + "' ORDER BY name"))
                .isEqualTo("i 2\tx, lower(s)\tset(100)\t4\ni1\ts\tminmax\t1\ni3\tn\tset(0)\t1");
    }

    @Test
    void refusesWhatClickHouseRefusesWithItsMessage() {
        String[] cases = {
            ", INDEX i x TYPE set",
            ", INDEX i x TYPE set(1, 2)",
            ", INDEX i x TYPE set(-1)",
            ", INDEX i x TYPE set('a')",
            ", INDEX i x TYPE bloom_filter(2)",
            ", INDEX i x TYPE bloom_filter(1)",
            ", INDEX i x TYPE bloom_filter(0)",
            ", INDEX i x TYPE bloom_filter(-0.1)",
            ", INDEX i x TYPE bloom_filter(0.5, 1)",
            ", INDEX i x TYPE foo",
            ", INDEX i x TYPE minmax, INDEX i s TYPE set(2)",
            ", INDEX i s TYPE tokenbf_v1(256, 2)",
            ", INDEX i x TYPE tokenbf_v1(256, 2, 0)",
            ", INDEX i s TYPE ngrambf_v1(3, 256, 2)",
            ", INDEX i s TYPE ngrambf_v1(0, 256, 2, 0)",
            ", INDEX i s TYPE tokenbf_v1(0, 2, 0)",
            ", INDEX i s TYPE minmax GRANULARITY 0",
            ", INDEX i d32 TYPE bloom_filter",
            ", INDEX i dec TYPE bloom_filter(0.1)",
            ", INDEX i aa TYPE bloom_filter",
            ", INDEX i m TYPE bloom_filter",
            ", INDEX i s TYPE tokenbf_v1(256, 0, 0)",
            ", INDEX i s TYPE ngrambf_v1(3, 2000000000, 2, 0)",
            ", INDEX i s TYPE tokenbf_v1(256, 2, -1)",
            ", INDEX i s TYPE ngrambf_v1(3, 256, 2.5, 0)",
            ", INDEX i m TYPE tokenbf_v1(256, 2, 0)",
            ", INDEX i (s, x) TYPE ngrambf_v1(3, 256, 2, 0)",
        };
        for (String c : cases) {
            String ddl = table(c);
            String theirs;
            try {
                ch.execute(ddl.replace("TABLE t ", "TABLE r" + TABLES.incrementAndGet() + " "));
                throw new AssertionError("ClickHouse accepted " + ddl);
            } catch (RuntimeException e) {
                theirs = e.getMessage();
            }
            assertThatThrownBy(() -> TableSchema.parse(ddl))
                    .as(ddl)
                    .isInstanceOf(DdlParseException.class)
                    .satisfies(
                            e -> {
                                String ours = ((DdlParseException) e).detail();
                                assertThat(theirs).as(ddl).contains(ours);
                            });
        }
    }

    @Test
    void refusesTheIndexTypesItDoesNotWriteNamingTheIndex() {
        for (String type :
                new String[] {
                    "text(tokenizer = 'splitByNonAlpha')",
                    "vector_similarity('hnsw', 'L2Distance', 3)",
                    "hypothesis"
                }) {
            String ddl = table(", INDEX idx_s s TYPE " + type);
            assertThatThrownBy(() -> TableSchema.parse(ddl))
                    .as(ddl)
                    .isInstanceOf(UnsupportedDdlException.class)
                    .hasMessageContaining("Skip index (INDEX) `idx_s` of type")
                    .hasMessageContaining("is not supported by this engine");
        }
    }
}
