package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Table and column {@code TTL}: accepted and refused as ClickHouse 26.7 (chDB) accepts and refuses
 * them, with its messages (the type of the expression, a constant or non-deterministic expression,
 * a TTL on a key column, two rules without {@code WHERE}); the canonical DDL keeps every rule and
 * column TTL, and ClickHouse prints the table it creates from it as it prints the original. Moving,
 * recompressing and rollup TTLs are refused as not supported.
 */
class TtlDdlChDbTest {
    @ChDbSession static ChDb ch;

    private static int tables;

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts + INTERVAL 30 DAY",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts DELETE",
                "(ts DateTime('Asia/Tokyo'), v UInt32) ENGINE = MergeTree ORDER BY v"
                        + " TTL toStartOfDay(ts) + INTERVAL 1 MONTH",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v"
                        + " TTL toDate(ts) + toIntervalDay(7)",
                "(d Date, v UInt32) ENGINE = MergeTree ORDER BY v TTL d + INTERVAL 1 HOUR",
                "(d Date32, v UInt32) ENGINE = MergeTree ORDER BY v TTL d",
                "(ts DateTime64(3), v UInt32) ENGINE = MergeTree ORDER BY v TTL ts",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts + INTERVAL 1 DAY,"
                        + " ts + INTERVAL 2 DAY WHERE v, ts + INTERVAL 3 DAY DELETE WHERE v % 2",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts WHERE v, ts WHERE v",
                "(ts DateTime, v UInt32, x UInt32 TTL ts + INTERVAL 1 DAY, s String DEFAULT 'x'"
                        + " TTL toDate(ts) + 7) ENGINE = MergeTree ORDER BY v",
                "(ts DateTime, v UInt32, x UInt32 DEFAULT v * 2 CODEC(ZSTD(1)) TTL ts)"
                        + " ENGINE = MergeTree ORDER BY v TTL ts SETTINGS ttl_only_drop_parts = 1,"
                        + " merge_with_ttl_timeout = 60",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL v",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL 5",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL now() + INTERVAL 1 DAY",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL toDateTime(now())",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v"
                        + " TTL ts + INTERVAL 1 DAY, ts + INTERVAL 2 DAY",
                "(ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts, ts + 1",
                "(ts DateTime, v UInt32 TTL ts + INTERVAL 1 DAY) ENGINE = MergeTree ORDER BY v",
                "(ts DateTime, v UInt32, w UInt32 TTL ts) ENGINE = MergeTree ORDER BY v"
                        + " PARTITION BY w",
                "(ts DateTime, v UInt32, w UInt32 TTL ts) ENGINE = MergeTree ORDER BY v"
                        + " PARTITION BY w % 7",
                "(ts DateTime, v UInt32, w UInt32 TTL w) ENGINE = MergeTree ORDER BY v",
                "(ts Nullable(DateTime), v UInt32) ENGINE = MergeTree ORDER BY v"
                        + " TTL ts + INTERVAL 1 DAY",
                "(ts DateTime, v UInt32, x UInt32 TTL today()) ENGINE = MergeTree ORDER BY v",
                "(ts DateTime, v UInt32, x UInt32 TTL ts) ENGINE = MergeTree ORDER BY v TTL v",
            })
    void acceptsAndRefusesAsClickHouse(String definition) {
        String name = "ttl_table_" + tables++;
        String ddl = "CREATE TABLE " + name + " " + definition;
        String refusal = null;
        try {
            ch.execute(ddl);
        } catch (ChDbException e) {
            refusal = e.getMessage();
        }
        if (refusal == null) {
            TableSchema schema = DdlParser.parse(ddl);
            assertThat(schema.hasAnyTtl()).isTrue();
            String canonical =
                    schema.toCreateTableSql().replace("`" + name + "`", "`" + name + "_canonical`");
            ch.execute(canonical);
            assertThat(
                            showCreate(name + "_canonical")
                                    .replace("." + name + "_canonical", "." + name))
                    .isEqualTo(showCreate(name));
            assertThat(DdlParser.parse(schema.toCreateTableSql())).isEqualTo(schema);
        } else {
            String expected =
                    refusal.replaceAll("(?s).*DB::Exception: ", "")
                            .replaceAll("(?s)\\.? \\(\\w+\\).*", "");
            assertThatThrownBy(() -> DdlParser.parse(ddl))
                    .as("ClickHouse refuses: %s", refusal)
                    .isInstanceOf(DdlParseException.class)
                    .hasMessageContaining(expected);
        }
    }

    @Test
    void refusesMovingRecompressingAndRollupTtlsAsNotSupported() {
        String head = "CREATE TABLE t (ts DateTime, v UInt32) ENGINE = MergeTree ORDER BY v TTL ts";
        assertThatThrownBy(() -> DdlParser.parse(head + " TO DISK 'cold'"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("TTL ... TO DISK is not supported");
        assertThatThrownBy(() -> DdlParser.parse(head + " + INTERVAL 1 DAY TO VOLUME 'v'"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("TTL ... TO VOLUME is not supported");
        assertThatThrownBy(() -> DdlParser.parse(head + " RECOMPRESS CODEC(ZSTD(9))"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("RECOMPRESS is not supported");
        assertThatThrownBy(() -> DdlParser.parse(head + " GROUP BY v SET ts = max(ts)"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("GROUP BY is not supported");
        assertThatThrownBy(() -> DdlParser.parse(head + ", ts + 1 WHERE toString(v)"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("WHERE toString(v): a condition of type String");
    }

    private static String showCreate(String table) {
        return ch.query("SHOW CREATE TABLE " + table);
    }
}
