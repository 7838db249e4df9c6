package io.github.s3mergetree.source.s3.format.hive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive partition values converted to column types as ClickHouse converts them: for each value and
 * type, a Parquet file under {@code k=<value>/} read by chDB's {@code file()} with the structure
 * {@code id UInt8, k <type>} and by {@link HivePartitionedBlockFormat}: the same RowBinary, or both
 * refuse (ours naming the object, column, value and type).
 */
class HivePartitioningTest {
    @TempDir static Path tmp;
    static ChDb chdb;
    static byte[] parquet;

    static final String[] INT_VALUES = {
        "5",
        "+7",
        "-0",
        "007",
        "300",
        "-3",
        " 5",
        "5x",
        "",
        "1e3",
        "0x10",
        "1.0",
        "NULL",
        "__HIVE_DEFAULT_PARTITION__",
        "99999999999999999999",
        "18446744073709551615"
    };
    static final String[] INT_TYPES = {
        "Int32", "Nullable(Int32)", "UInt8", "Nullable(UInt8)", "Int64", "UInt64", "Int8"
    };
    static final String[] OTHER_CASES = {
        // value, type
        "north", "String",
        "a%20b%2Fc", "String",
        "__HIVE_DEFAULT_PARTITION__", "Nullable(String)",
        "__HIVE_DEFAULT_PARTITION__", "String",
        "", "Nullable(String)",
        "x", "LowCardinality(String)",
        "x", "LowCardinality(Nullable(String))",
        "é", "String",
        "a=b", "String",
        "", "FixedString(2)",
        "ab", "FixedString(1)",
        "true", "Bool",
        "FALSE", "Bool",
        "1", "Bool",
        "0", "Bool",
        "yes", "Bool",
        "off", "Bool",
        "enable", "Bool",
        "2", "Bool",
        "2024-01-02", "Date",
        "2024-1-2", "Date",
        "20240102", "Date",
        "2024-01-02 03:04:05", "Date",
        "19000", "Date",
        "2024-01-02", "Date32",
        "2024-01-02 03:04:05", "DateTime",
        "2024-01-02T03:04:05", "DateTime",
        "1700000000", "DateTime",
        "2024-01-02", "DateTime",
        "2024-01-02 03:04:05.123", "DateTime64(3)",
        "2024-01-02 03:04:05.123", "DateTime",
        "2024-01-02 03:04:05.", "DateTime",
        "2024-01-02 03:04:05.12x", "DateTime",
        "2024-01-02 03:04:05,5", "DateTime",
        "1700000000.5", "DateTime",
        "2024-01-02 03:04:05", "Nullable(DateTime('Asia/Tokyo'))",
        "1.5", "Float64",
        "1e3", "Float32",
        "nan", "Float64",
        "-0.0", "Float64",
        "1,5", "Float64",
        "1.5", "Decimal(9, 2)",
        "nan", "Decimal(9, 2)",
        "61f0c404-5cb3-11e7-907b-a6006ad3dba0", "UUID",
        "1.2.3.4", "IPv4",
        "[1,2]", "Array(Int32)",
    };

    @BeforeAll
    static void start() throws Exception {
        chdb = ChDb.start(tmp.resolve("chdb"));
        chdb.execute(
                "INSERT INTO FUNCTION file('base.parquet', 'Parquet') SELECT toUInt8(number) AS id"
                        + " FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1");
        parquet = Files.readAllBytes(chdb.userFilesDir().resolve("base.parquet"));
    }

    @AfterAll
    static void stop() {
        if (chdb != null) {
            chdb.close();
        }
    }

    @Test
    void integerValuesConvertAsClickHouseConvertsThem() throws Exception {
        List<String> differences = new ArrayList<>();
        int n = 0;
        for (String v : INT_VALUES) {
            for (String t : INT_TYPES) {
                compare("int" + n++, v, t, differences);
            }
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void otherValuesConvertAsClickHouseConvertsThem() throws Exception {
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < OTHER_CASES.length; i += 2) {
            compare("other" + i, OTHER_CASES[i], OTHER_CASES[i + 1], differences);
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void pathSegmentsAreReadAsClickHouseReadsThem() throws Exception {
        List<String> differences = new ArrayList<>();
        // the file name never counts; a directory without '=' or with an empty key does not
        // count; the value is all after the first '='; a key twice with the same value is one key
        comparePath("seg0", "k=1/k=1", "k String", differences);
        comparePath("seg1", "x/k=v w/y", "k String", differences);
        comparePath("seg2", "K=v", "k String", differences);
        comparePath("seg3", "k=a=b", "k String", differences);
        comparePath("seg4", "k=/j=2", "k String, j Int32", differences);
        comparePath("seg5", "\"k\"=\"v\"", "k String", differences);
        comparePath("seg6", "a.b=v/a-b=w", "`a.b` String, `a-b` String", differences);
        assertThat(differences).isEmpty();
    }

    @Test
    void aKeyWithTwoValuesIsRefusedAsClickHouseRefusesIt() throws Exception {
        Path dir = write("dup", "k=1/k=2");
        assertThatThrownBy(() -> clickHouse(dir, "id UInt8, k String"))
                .hasMessageContaining("duplicated partition key k with different values");
        assertThatThrownBy(() -> ours(dir, "id UInt8, k String"))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("k=1/k=2/x.parquet")
                .hasMessageContaining("duplicated partition key k with different values");
    }

    @Test
    void aPathNamingEveryColumnIsRefusedAsClickHouseRefusesIt() throws Exception {
        Path dir = write("only", "k=1");
        assertThatThrownBy(() -> clickHouse(dir, "k String"))
                .hasMessageContaining("can't contain only partition columns");
        assertThatThrownBy(() -> ours(dir, "k String"))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("k=1/x.parquet")
                .hasMessageContaining("can't contain only partition columns");
    }

    @Test
    void aValueThatDoesNotConvertNamesObjectColumnValueAndType() throws Exception {
        Path dir = write("bad", "n=__HIVE_DEFAULT_PARTITION__");
        assertThatThrownBy(() -> ours(dir, "id UInt8, n Nullable(Int32)"))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("n=__HIVE_DEFAULT_PARTITION__/x.parquet")
                .hasMessageContaining("column 'n'")
                .hasMessageContaining("'__HIVE_DEFAULT_PARTITION__' to type Int32");
    }

    /** Appends a difference when ours and chDB's readings of {@code k=value} differ. */
    private void compare(String name, String value, String type, List<String> differences)
            throws Exception {
        compare(name, "k=" + value, "id UInt8, k " + type, value, type, differences);
    }

    /** The same for directories {@code dirs} read with the columns {@code id UInt8, columns}. */
    private void comparePath(String name, String dirs, String columns, List<String> differences)
            throws Exception {
        compare(name, dirs, "id UInt8, " + columns, dirs, columns, differences);
    }

    private void compare(
            String name,
            String dirs,
            String columns,
            String value,
            String type,
            List<String> differences)
            throws Exception {
        Path dir = write(name, dirs);
        byte[] theirs;
        String theirError = null;
        try {
            theirs = clickHouse(dir, columns);
        } catch (RuntimeException e) {
            theirs = null;
            theirError = e.getMessage();
        }
        byte[] mine;
        String myError = null;
        try {
            mine = ours(dir, columns);
        } catch (ObjectFormatException e) {
            mine = null;
            myError = e.getMessage();
            assertThat(myError).contains(dir.toString()).doesNotContain("\u0000");
        }
        if (theirs == null && mine == null) {
            return;
        }
        if (theirs == null || mine == null || !java.util.Arrays.equals(theirs, mine)) {
            differences.add(
                    "'"
                            + value
                            + "' as "
                            + type
                            + ": ClickHouse "
                            + (theirs == null
                                    ? "refuses: " + firstLine(theirError)
                                    : java.util.HexFormat.of().formatHex(theirs))
                            + ", ours "
                            + (mine == null
                                    ? "refuses: " + myError
                                    : java.util.HexFormat.of().formatHex(mine)));
        }
    }

    private static String firstLine(String s) {
        int i = s.indexOf(". (");
        return i > 0 ? s.substring(0, i) : s;
    }

    private static Path write(String name, String dirs) throws Exception {
        Path dir = tmp.resolve("cases").resolve(name).resolve(dirs);
        Files.createDirectories(dir);
        Files.write(dir.resolve("x.parquet"), parquet);
        return dir;
    }

    private static byte[] clickHouse(Path dir, String columns) {
        return chdb.readFileAsRowBinary(dir.resolve("x.parquet"), "Parquet", columns, "");
    }

    @Test
    void columnsAllFromThePathStillHaveTheObjectsRows() throws Exception {
        // a SQL query reading only the path's columns of a table that has others
        Path dir = write("projected", "k=1/j=2");
        String table = "id UInt8, k String, j Int32";
        Path out = tmp.resolve("projected.rowbinary");
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + out
                        + "', 'RowBinary') SELECT j, k FROM file('"
                        + dir.resolve("x.parquet")
                        + "', Parquet, '"
                        + table
                        + "') SETTINGS engine_file_truncate_on_insert = 1");
        byte[] theirs = Files.readAllBytes(out);
        // 3 rows of (2, '1'): Int32 2, then the string '1'
        assertThat(theirs).hasSize(3 * 6);
        List<Block> blocks = read(dir, "j Int32, k String", table);
        assertThat(ReadAsClickHouse.rowBinary(blocks)).isEqualTo(theirs);
    }

    private static byte[] ours(Path dir, String columns) throws Exception {
        return ReadAsClickHouse.rowBinary(read(dir, columns, columns));
    }

    private static List<Block> read(Path dir, String columns, String tableColumns)
            throws Exception {
        TargetSchema schema = TargetSchema.parse(columns);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory("/").createClient(),
                        new Configuration())) {
            List<Block> blocks = new ArrayList<>();
            HivePartitionedBlockFormat format =
                    new HivePartitionedBlockFormat(
                            new ParquetBlockFormat(schema), TargetSchema.parse(tableColumns));
            t.readAll(format, t.wholeSplit(dir.resolve("x.parquet").toString().substring(1)))
                    .forEach(r -> blocks.add(r.record()));
            return blocks;
        }
    }
}
