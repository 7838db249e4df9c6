package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code SAMPLE BY}: accepted and refused exactly as ClickHouse 26.7 (chDB) accepts and refuses it,
 * with its messages; kept in the canonical DDL (so every statement that creates the table in
 * ClickHouse carries it); and {@code SELECT … SAMPLE 0.1} over our parts returns the rows chDB's
 * own insert of the same rows returns.
 */
class SamplingKeyChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    private static int tables;

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY (id)",
                "(id UInt64, x UInt32) ENGINE = MergeTree SAMPLE BY id ORDER BY (x, id)",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, cityHash64(id))"
                        + " SAMPLE BY cityHash64(id)",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id + 1) SAMPLE BY id + 1",
                "(id UInt8, x UInt32) ENGINE = MergeTree ORDER BY (id, x) SAMPLE BY id",
                "(id UInt16, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY x",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY x SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY cityHash64(id) SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) PRIMARY KEY x"
                        + " SAMPLE BY id",
                "(id Int64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY (x, id)",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY tuple()",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY 5",
                "(id Nullable(UInt64), x UInt32) ENGINE = MergeTree ORDER BY (x, id)"
                        + " SAMPLE BY id SETTINGS allow_nullable_key = 1",
                "(id Bool, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id",
                "(id Date, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id",
                "(id UInt64, x UInt32) ENGINE = MergeTree ORDER BY x SAMPLE BY id SETTINGS"
                        + " compatibility_allow_sampling_expression_not_in_primary_key = 1",
                "(id Int64, x UInt32) ENGINE = MergeTree ORDER BY (x, id) SAMPLE BY id"
                        + " SETTINGS check_sample_column_is_correct = 0",
                "(id UInt64, x UInt32) ENGINE = ReplacingMergeTree ORDER BY (x, id) SAMPLE BY id",
            })
    void acceptsAndRefusesAsClickHouse(String definition) {
        String name = "v" + tables++;
        String ddl = "CREATE TABLE " + name + " " + definition;
        String refusal = null;
        try {
            ch.execute(ddl);
        } catch (ChDbException e) {
            refusal = e.getMessage();
        }
        if (refusal == null) {
            TableSchema schema = DdlParser.parse(ddl);
            assertThat(schema.samplingKey().isEmpty()).isFalse();
            // the canonical statement keeps the clause, and ClickHouse creates the same table
            String canonical = schema.toCreateTableSql().replace(name, name + "_canonical");
            assertThat(canonical).contains("\nSAMPLE BY ");
            ch.execute(canonical);
            // the same key; `SAMPLE BY (id)` is shown as written, `(id)`
            assertThat(samplingKeyOf(name + "_canonical"))
                    .isEqualTo(samplingKeyOf(name).replaceAll("^\\((.*)\\)$", "$1"));
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
    void sampleClauseReadsTheSameRowsFromOurPartsAsFromClickHousesOwn() throws Exception {
        String structure = "k UInt8, id UInt64, s String";
        String tail =
                " ENGINE = MergeTree ORDER BY (k, cityHash64(id)) SAMPLE BY cityHash64(id)"
                        + " SETTINGS index_granularity = 64";
        TableLayout layout = TableLayouts.fromDdl("CREATE TABLE ours_s (" + structure + ")" + tail);
        assertThat(layout.ddl()).contains("SAMPLE BY cityHash64(id)");
        ch.execute("CREATE TABLE ref_s (" + structure + ")" + tail);
        // the table in ClickHouse is created from the DDL the layout carries
        ch.execute(layout.ddl());
        MergeTreeTable table =
                MergeTreeTable.open(
                        LocalParts.store(tmp.resolve("ours_s")), layout, Clock.systemUTC());
        for (int seed = 0; seed < 3; seed++) {
            Path data = tmp.resolve("sample" + seed + ".bin");
            ch.execute(
                    "SELECT toUInt8(number % 3) AS k, cityHash64(number, "
                            + seed
                            + ") AS id, toString(number) AS s FROM numbers(5000) INTO OUTFILE '"
                            + data
                            + "' FORMAT RowBinary");
            ch.execute(
                    "INSERT INTO ref_s SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + structure
                            + "')");
            table.insert(
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString()));
        }
        List<ActivePart> parts = table.activeParts();
        for (ActivePart p : parts) {
            ch.attachPart("ours_s", LocalParts.root(table).resolve(p.name().toString()));
        }
        ch.assertCheckTablePasses("ours_s");
        for (String sample : List.of("0.1", "1 / 3", "0.5 OFFSET 0.5", "1000")) {
            String q = " SAMPLE " + sample;
            String ours = ch.query("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM ours_s" + q);
            String ref = ch.query("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM ref_s" + q);
            assertThat(ours).as("SAMPLE %s", sample).isEqualTo(ref);
            assertThat(ch.queryLong("SELECT count() FROM ours_s" + q))
                    .as("SAMPLE %s reads a proper subset", sample)
                    .isPositive()
                    .isLessThan(15000);
        }
    }

    private static String samplingKeyOf(String table) {
        return ch.query(
                "SELECT sampling_key FROM system.tables WHERE database = currentDatabase()"
                        + " AND name = '"
                        + table
                        + "'");
    }
}
