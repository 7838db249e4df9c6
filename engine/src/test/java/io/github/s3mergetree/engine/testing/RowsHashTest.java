package io.github.s3mergetree.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Judges the judge: {@link RowsHash} must tell apart two tables that differ only in a NULL against
 * the default value of its column (where the old {@code sum(cityHash64(*))} saw equal tables), on
 * both engines the tests compare with: chDB (ClickHouse 26.x) and ClickHouse 18.16.
 */
class RowsHashTest {

    @ChDbSession static ChDb chdb;

    @TempDir Path tmp;

    private static final String COLUMNS =
            "(id UInt32, n Nullable(Int32), s Nullable(String), d Decimal(10, 2),"
                    + " a Array(Nullable(String)), lc LowCardinality(Nullable(String)))";

    /** Rows with a NULL in one column each, and the same rows with the column's default instead. */
    private static final String[] WITH_NULLS = {
        "(1, NULL, 'x', 1.50, ['a'], 'l')",
        "(2, 7, NULL, 2.00, ['b'], 'l')",
        "(3, 8, 'y', 3.25, [NULL], 'l')",
        "(4, 9, 'z', 4.00, ['c'], NULL)",
    };

    private static final String[] WITH_DEFAULTS = {
        "(1, 0, 'x', 1.50, ['a'], 'l')",
        "(2, 7, '', 2.00, ['b'], 'l')",
        "(3, 8, 'y', 3.25, [''], 'l')",
        "(4, 9, 'z', 4.00, ['c'], '')",
    };

    @Test
    void chDbTellsANullFromTheDefaultValue() {
        assertJudgeSeesNulls(chdb::execute, chdb::query);
        // a wrong value in a row that also has a NULL: the old judge skipped the row, saw equal
        // tables; this one does not
        chdb.execute("CREATE TABLE rh_wrong " + COLUMNS + " ENGINE = MergeTree ORDER BY id");
        String[] rows = WITH_NULLS.clone();
        rows[0] = "(1, NULL, 'wrong', 1.50, ['a'], 'l')";
        chdb.execute("INSERT INTO rh_wrong VALUES " + String.join(", ", rows));
        assertThat(chdb.query("SELECT sum(cityHash64(*)) FROM rh_wrong"))
                .isEqualTo(chdb.query("SELECT sum(cityHash64(*)) FROM rh_nulls"));
        assertThat(chdb.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM rh_wrong"))
                .isNotEqualTo(chdb.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM rh_nulls"));
    }

    @Test
    void clickHouse1816TellsANullFromTheDefaultValue() throws Exception {
        try (ClickHouse1816 ch = ClickHouse1816.start(tmp.resolve("ch1816"))) {
            assertJudgeSeesNulls(ch::execute, ch::query);
        }
    }

    @Test
    void refusesNoColumns() {
        assertThatThrownBy(() -> RowsHash.of(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one column");
        assertThat(RowsHash.of("id, s")).isEqualTo("sum(cityHash64(toString(tuple(id, s))))");
    }

    private static void assertJudgeSeesNulls(
            Consumer<String> execute, Function<String, String> query) {
        String engine = " ENGINE = MergeTree ORDER BY id";
        execute.accept("CREATE TABLE rh_nulls " + COLUMNS + engine);
        execute.accept("CREATE TABLE rh_reordered " + COLUMNS + engine);
        execute.accept("INSERT INTO rh_nulls VALUES " + String.join(", ", WITH_NULLS));
        // the same rows in another order and in two parts: the same hash
        execute.accept("INSERT INTO rh_reordered VALUES " + WITH_NULLS[3]);
        execute.accept(
                "INSERT INTO rh_reordered VALUES "
                        + String.join(", ", WITH_NULLS[2], WITH_NULLS[0], WITH_NULLS[1]));
        String nullsHash = query.apply("SELECT " + RowsHash.ALL_COLUMNS + " FROM rh_nulls");
        assertThat(nullsHash).matches("[0-9]+").isNotEqualTo("0");
        assertThat(query.apply("SELECT " + RowsHash.ALL_COLUMNS + " FROM rh_reordered"))
                .isEqualTo(nullsHash);

        for (int i = 0; i < WITH_DEFAULTS.length; i++) {
            String table = "rh_default_" + i;
            execute.accept("CREATE TABLE " + table + " " + COLUMNS + engine);
            // the same rows, row i + 1 with its column's default value instead of its NULL
            String[] rows = WITH_NULLS.clone();
            rows[i] = WITH_DEFAULTS[i];
            execute.accept("INSERT INTO " + table + " VALUES " + String.join(", ", rows));
            assertThat(query.apply("SELECT count() FROM " + table)).isEqualTo("4");
            assertThat(query.apply("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + table))
                    .as("row %d with a default instead of its NULL", i + 1)
                    .isNotEqualTo(nullsHash);
            // the column subset form sees it too
            assertThat(query.apply("SELECT " + RowsHash.of("id, n, s, a, lc") + " FROM " + table))
                    .isNotEqualTo(
                            query.apply(
                                    "SELECT " + RowsHash.of("id, n, s, a, lc") + " FROM rh_nulls"));
        }
    }
}
