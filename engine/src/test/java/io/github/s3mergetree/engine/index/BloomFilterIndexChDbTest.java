package io.github.s3mergetree.engine.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of {@code TYPE bloom_filter} against ClickHouse 26.x (chDB): every supported
 * column type, several false-positive rates and GRANULARITY values, index files byte-identical to
 * chDB's on insert and merge, and the same granules dropped by {@code EXPLAIN indexes = 1}.
 */
class BloomFilterIndexChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "id UInt32, s String, lc LowCardinality(String), ns Nullable(String), fs"
                    + " FixedString(3), a Array(String), i8 Int8, u16 UInt16, i32 Int32, u64 UInt64,"
                    + " i128 Int128, u256 UInt256, f32 Float32, f64 Float64, d Date, dt DateTime,"
                    + " u UUID, e Enum8('x' = 1, 'y' = -2), an Array(UInt32), ln"
                    + " LowCardinality(Nullable(String)), i16 Nullable(Int16), d32 Date32, ip4"
                    + " IPv4, ip6 IPv6, dt64 DateTime64(3, 'UTC')";

    static final String INDEXES =
            ", INDEX bf_s s TYPE bloom_filter"
                    + ", INDEX bf_lc lc TYPE bloom_filter(0.01) GRANULARITY 2"
                    + ", INDEX bf_ns ns TYPE bloom_filter(0.1)"
                    + ", INDEX bf_fs fs TYPE bloom_filter(0.5) GRANULARITY 3"
                    + ", INDEX bf_a a TYPE bloom_filter"
                    + ", INDEX bf_ints (i8, u16, i32, u64) TYPE bloom_filter(0.001) GRANULARITY 2"
                    + ", INDEX bf_wide (i128, u256, u) TYPE bloom_filter"
                    + ", INDEX bf_f (f32, f64) TYPE bloom_filter(0.3)"
                    + ", INDEX bf_dt (d, dt, e) TYPE bloom_filter(0.05) GRANULARITY 4"
                    + ", INDEX bf_an an TYPE bloom_filter(0.2)"
                    + ", INDEX bf_ln (ln, i16) TYPE bloom_filter(0.0001)"
                    + ", INDEX bf_lower lower(s) TYPE bloom_filter(0.02) GRANULARITY 5"
                    + ", INDEX bf_ip (ip4, ip6, dt64) TYPE bloom_filter";

    static final String GENERATOR =
            "SELECT toUInt32(number * 3 + SEED) AS id, concat(if(number % 3 = 0, 'K', 'k'),"
                    + " toString(cityHash64(number, SEED) % 400)), concat('lc', toString(number % 7)),"
                    + " if(number % 9 = 0, NULL, toString(intDiv(number, 50))), toFixedString(substring(hex(number"
                    + " % 300), 1, 3), 3), if(intDiv(number, 100) % 6 = 2, [], arrayMap(i -> concat('a',"
                    + " toString((number + i) % 290)), range(number % 4))), toInt8(number % 256 - 128),"
                    + " toUInt16(number * 7 % 65536), toInt32(number * 1000003) - 2000000000,"
                    + " cityHash64(number), toInt128(number) * toInt128('-1000000000000000000000'),"
                    + " toUInt256(number) * toUInt256('100000000000000000000000000000000000000000000000000000000000000000000000'),"
                    + " if(number % 50 = 7, nan, toFloat32(number % 131) / 3), if(number % 17 = 0, -0.,"
                    + " (number % 97) / 7 - 3), toDate('2024-01-01') + intDiv(number, 37),"
                    + " toDateTime('2024-01-01 00:00:00', 'UTC') + number * 97, generateUUIDv4(number),"
                    + " if(number % 5 = 0, 'y', 'x'), if(number % 100 < 20, [], range(number % 5)),"
                    + " if(number % 5 = 0, NULL, concat('n', toString(number % 170))), if(number % 4 = 0,"
                    + " NULL, toInt16(number % 1000 - 500)), toDate32('1960-01-01') + number,"
                    + " toIPv4(number * 16777259), toIPv6(concat('2001:db8::', hex(number %"
                    + " 700))), toDateTime64('2024-01-01 00:00:00', 3, 'UTC') + number * 1.5"
                    + " FROM numbers(ROWS)";

    static final List<String> FILTERS =
            List.of(
                    "s = 'K7'",
                    "s IN ('k1', 'K2', 'k399')",
                    "lower(s) = 'k40'",
                    "lc = 'lc3'",
                    "ns = '12'",
                    "ns IS NULL",
                    "fs = '1A'",
                    "has(a, 'a3')",
                    "hasAny(a, ['a1', 'a280'])",
                    "i8 = -100",
                    "u16 = 700",
                    "i32 = 1000003 - 2000000000",
                    "u64 = cityHash64(1234)",
                    "i128 = toInt128(12) * toInt128('-1000000000000000000000')",
                    "f32 = 10",
                    "f64 = -3",
                    "d = toDate('2024-01-20')",
                    "dt = toDateTime('2024-01-01 00:00:00', 'UTC') + 97 * 1500",
                    "e = 'y'",
                    "has(an, 3)",
                    "ln = 'n4'",
                    "i16 = -17",
                    "u = generateUUIDv4(77)",
                    "ip4 = toIPv4(7 * 16777259)",
                    "ip6 = toIPv6('2001:db8::1A')",
                    "dt64 = toDateTime64('2024-01-01 00:00:00', 3, 'UTC') + 30 * 1.5");

    /**
     * ClickHouse creates a bloom_filter over Array(Nullable(String)) and bloom_filter(1.0) or
     * (0.0), but refuses every insert into the first: so do we, with its message.
     */
    @Test
    void arrayOfNullableIsRefusedOnInsertAsClickHouseDoes() throws Exception {
        String ddl =
                "CREATE TABLE an (id UInt32, a Array(Nullable(String)), b UInt8, c UInt8, INDEX i a"
                        + " TYPE bloom_filter, INDEX j b TYPE bloom_filter(1.0), INDEX k c TYPE"
                        + " bloom_filter(0.0)) ENGINE = MergeTree ORDER BY id";
        ch.execute(ddl);
        String theirs = "";
        try {
            ch.execute("INSERT INTO an VALUES (1, ['x', NULL], 1, 2)");
        } catch (RuntimeException e) {
            theirs = e.getMessage();
        }
        TableLayout layout = TableLayouts.fromDdl(ddl);
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("an")), layout, Clock.systemUTC());
        Path data = tmp.resolve("an.bin");
        ch.execute(
                "INSERT INTO FUNCTION file('"
                        + data
                        + "', RowBinary, 'id UInt32, a Array(Nullable(String)), b UInt8, c UInt8')"
                        + " VALUES (1, ['x', NULL], 1, 2)");
        String[] message = new String[1];
        assertThatThrownBy(
                        () ->
                                table.insert(
                                        RowBinary.read(
                                                Files.readAllBytes(data),
                                                layout.columnNames(),
                                                layout.columnTypes(),
                                                data.toString())))
                .satisfies(e -> message[0] = rootMessage(e));
        assertThat(message[0])
                .isEqualTo("Unexpected type Array(Nullable(String)) of bloom filter index.");
        assertThat(theirs).contains(message[0]);
    }

    private static String rootMessage(Throwable e) {
        while (e.getCause() != null) {
            e = e.getCause();
        }
        return e.getMessage();
    }

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void indexFilesAreClickHousesOwnOnInsertAndMerge(long granularityBytes) throws Exception {
        int dropping =
                new SkipIndexDifferential(
                                ch,
                                tmp,
                                "bf" + granularityBytes,
                                STRUCTURE,
                                INDEXES,
                                GENERATOR,
                                ", index_granularity_bytes = " + granularityBytes,
                                FILTERS,
                                false)
                        .run();
        // the comparison means something: the bloom filters do drop granules
        assertThat(dropping).isGreaterThan(10);
    }
}
