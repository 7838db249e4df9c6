package io.github.s3mergetree.connector.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.NullType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.YearMonthIntervalType;
import org.apache.flink.table.types.logical.ZonedTimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ClickHouseTypes} directly: every ClickHouse type family to its Flink type (the table in
 * its javadoc), the wrappers (Nullable, LowCardinality) and the nesting (Array, Map, Tuple) in both
 * directions, the Flink types it refuses, and chDB accepting every column type {@link
 * ClickHouseTypes#fromFlink} writes.
 */
class ClickHouseTypesTest {

    /** ClickHouse type → the Flink type (its {@link LogicalType#toString()}) of the table. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Bool | BOOLEAN NOT NULL",
                "Int8 | TINYINT NOT NULL",
                "Int16 | SMALLINT NOT NULL",
                "Int32 | INT NOT NULL",
                "Int64 | BIGINT NOT NULL",
                "UInt8 | SMALLINT NOT NULL",
                "UInt16 | INT NOT NULL",
                "UInt32 | BIGINT NOT NULL",
                "UInt64 | DECIMAL(20, 0) NOT NULL",
                "Int128 | STRING NOT NULL",
                "UInt128 | STRING NOT NULL",
                "Int256 | STRING NOT NULL",
                "UInt256 | STRING NOT NULL",
                "Float32 | FLOAT NOT NULL",
                "Float64 | DOUBLE NOT NULL",
                "Decimal(9, 2) | DECIMAL(9, 2) NOT NULL",
                "Decimal(38, 10) | DECIMAL(38, 10) NOT NULL",
                "Decimal(39, 10) | STRING NOT NULL",
                "Decimal(76, 0) | STRING NOT NULL",
                "String | STRING NOT NULL",
                "FixedString(16) | BINARY(16) NOT NULL",
                "Date | DATE NOT NULL",
                "Date32 | DATE NOT NULL",
                "DateTime | TIMESTAMP(0) NOT NULL",
                "DateTime('Europe/Berlin') | TIMESTAMP_LTZ(0) NOT NULL",
                "DateTime64(3) | TIMESTAMP(3) NOT NULL",
                "DateTime64(9, 'UTC') | TIMESTAMP_LTZ(9) NOT NULL",
                "UUID | STRING NOT NULL",
                "IPv4 | STRING NOT NULL",
                "IPv6 | STRING NOT NULL",
                "Enum8('a' = 1, 'b' = 2) | STRING NOT NULL",
                "Enum16('low' = -1000, 'high' = 1000) | STRING NOT NULL",
                "LowCardinality(String) | STRING NOT NULL",
                // a LowCardinality of a Nullable holds NULLs: its Flink type is nullable
                "LowCardinality(Nullable(String)) | STRING",
                "Array(LowCardinality(Nullable(String))) | ARRAY<STRING> NOT NULL",
                "LowCardinality(UInt16) | INT NOT NULL",
                "Nullable(Int32) | INT",
                "Nullable(UInt64) | DECIMAL(20, 0)",
                "Nullable(DateTime64(6, 'UTC')) | TIMESTAMP_LTZ(6)",
                "Array(Int32) | ARRAY<INT NOT NULL> NOT NULL",
                "Array(Nullable(String)) | ARRAY<STRING> NOT NULL",
                "Array(Array(LowCardinality(String))) | ARRAY<ARRAY<STRING NOT NULL> NOT NULL> NOT NULL",
                "Map(String, UInt64) | MAP<STRING NOT NULL, DECIMAL(20, 0) NOT NULL> NOT NULL",
                "Map(LowCardinality(String), Array(Nullable(Float64)))"
                        + " | MAP<STRING NOT NULL, ARRAY<DOUBLE> NOT NULL> NOT NULL",
                "Tuple(a Int32, b Nullable(String)) | ROW<`a` INT NOT NULL, `b` STRING> NOT NULL",
                "Tuple(Int8, Date) | ROW<`f0` TINYINT NOT NULL, `f1` DATE NOT NULL> NOT NULL",
                "Tuple(p Tuple(x Float64, y Float64), tags Array(String))"
                        + " | ROW<`p` ROW<`x` DOUBLE NOT NULL, `y` DOUBLE NOT NULL> NOT NULL,"
                        + " `tags` ARRAY<STRING NOT NULL> NOT NULL> NOT NULL",
            })
    void toFlinkMapsEveryFamily(String clickHouse, String flink) {
        assertThat(ClickHouseTypes.toFlink(DataTypeParser.parse(clickHouse)).toString())
                .isEqualTo(flink);
    }

    /** Every type family the engine knows has a Flink type: one sample of each is mapped. */
    @Test
    void everyTypeKindHasAFlinkType() {
        List<String> samples =
                List.of(
                        "UInt8",
                        "UInt16",
                        "UInt32",
                        "UInt64",
                        "UInt128",
                        "UInt256",
                        "Int8",
                        "Int16",
                        "Int32",
                        "Int64",
                        "Int128",
                        "Int256",
                        "Float32",
                        "Float64",
                        "Bool",
                        "Decimal(18, 4)",
                        "String",
                        "FixedString(3)",
                        "Date",
                        "Date32",
                        "DateTime",
                        "DateTime64(3)",
                        "UUID",
                        "IPv4",
                        "IPv6",
                        "Enum8('a' = 1)",
                        "Enum16('a' = 1)",
                        "Nullable(Int8)",
                        "LowCardinality(String)",
                        "Array(Int8)",
                        "Tuple(Int8)",
                        "Map(String, Int8)");
        Set<TypeKind> covered = EnumSet.noneOf(TypeKind.class);
        for (String sample : samples) {
            DataType type = DataTypeParser.parse(sample);
            assertThat(ClickHouseTypes.toFlink(type)).as(sample).isNotNull();
            covered.add(type.kind());
        }
        // state columns have no Flink value: refused, naming the type
        DataType state = DataTypeParser.parse("AggregateFunction(sum, UInt64)");
        assertThatThrownBy(() -> ClickHouseTypes.toFlink(state))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AggregateFunction(sum, UInt64) has no Flink type");
        covered.add(state.kind());
        assertThat(EnumSet.complementOf(EnumSet.copyOf(covered)))
                .as("type families without a sample here: add one with its Flink type")
                .isEmpty();
    }

    /** Flink type → the ClickHouse column type the sink derives. */
    @Test
    void fromFlinkTakesTheNarrowestTypeHoldingEveryValue() {
        assertThat(ClickHouseTypes.fromFlink(new BooleanType(false))).isEqualTo("Bool");
        assertThat(ClickHouseTypes.fromFlink(new TinyIntType(false))).isEqualTo("Int8");
        assertThat(ClickHouseTypes.fromFlink(new SmallIntType(false))).isEqualTo("Int16");
        assertThat(ClickHouseTypes.fromFlink(new IntType(false))).isEqualTo("Int32");
        assertThat(ClickHouseTypes.fromFlink(new BigIntType(false))).isEqualTo("Int64");
        assertThat(ClickHouseTypes.fromFlink(new FloatType(false))).isEqualTo("Float32");
        assertThat(ClickHouseTypes.fromFlink(new DoubleType(false))).isEqualTo("Float64");
        assertThat(ClickHouseTypes.fromFlink(new DecimalType(false, 20, 3)))
                .isEqualTo("Decimal(20, 3)");
        assertThat(ClickHouseTypes.fromFlink(new CharType(false, 4))).isEqualTo("String");
        assertThat(ClickHouseTypes.fromFlink(new VarCharType(false, 10))).isEqualTo("String");
        assertThat(ClickHouseTypes.fromFlink(new BinaryType(false, 16))).isEqualTo("String");
        assertThat(ClickHouseTypes.fromFlink(new VarBinaryType(false, 16))).isEqualTo("String");
        assertThat(ClickHouseTypes.fromFlink(new DateType(false))).isEqualTo("Date32");
        assertThat(ClickHouseTypes.fromFlink(new TimestampType(false, 3)))
                .isEqualTo("DateTime64(3)");
        assertThat(ClickHouseTypes.fromFlink(new LocalZonedTimestampType(false, 6)))
                .isEqualTo("DateTime64(6, 'UTC')");
    }

    @Test
    void fromFlinkWrapsNullableScalarsButNotComposites() {
        assertThat(ClickHouseTypes.fromFlink(new IntType(true))).isEqualTo("Nullable(Int32)");
        assertThat(ClickHouseTypes.fromFlink(new ArrayType(true, new IntType(true))))
                .isEqualTo("Array(Nullable(Int32))");
        // a Map key is never Nullable in ClickHouse; the value may be
        assertThat(
                        ClickHouseTypes.fromFlink(
                                new MapType(true, new VarCharType(true, 5), new BigIntType(true))))
                .isEqualTo("Map(String, Nullable(Int64))");
        assertThat(ClickHouseTypes.fromFlink(new MultisetType(true, new IntType(true))))
                .isEqualTo("Map(Int32, Int32)");
        assertThat(ClickHouseTypes.fromFlink(row(true)))
                .isEqualTo("Tuple(`id` Int64, `na\\`me` Nullable(String), `xs` Array(Float64))");
        assertThat(ClickHouseTypes.fromFlink(new TimestampType(true, 9)))
                .isEqualTo("Nullable(DateTime64(9))");
    }

    /** A Flink type the sink writes gives itself back when the source reads the column. */
    @Test
    void toFlinkOfFromFlinkIsTheFlinkTypeAgain() {
        for (LogicalType t :
                List.of(
                        new BooleanType(true),
                        new TinyIntType(false),
                        new SmallIntType(true),
                        new IntType(false),
                        new BigIntType(true),
                        new FloatType(false),
                        new DoubleType(true),
                        new DecimalType(false, 38, 18),
                        new VarCharType(true, VarCharType.MAX_LENGTH),
                        new DateType(false),
                        new TimestampType(true, 3),
                        new LocalZonedTimestampType(false, 9),
                        new ArrayType(false, new IntType(true)),
                        new MapType(
                                false,
                                new VarCharType(false, VarCharType.MAX_LENGTH),
                                new DoubleType(true)),
                        row(false, "name"))) {
            assertThat(ClickHouseTypes.toFlink(DataTypeParser.parse(ClickHouseTypes.fromFlink(t))))
                    .as(t.toString())
                    .isEqualTo(t);
        }
    }

    @Test
    void fromFlinkRefusesTypesWithoutAColumnTypeNamingThem() {
        for (LogicalType t :
                List.of(
                        new TimeType(false, 3),
                        new ZonedTimestampType(false, 3),
                        new DayTimeIntervalType(DayTimeIntervalType.DayTimeResolution.DAY),
                        new YearMonthIntervalType(YearMonthIntervalType.YearMonthResolution.YEAR),
                        new NullType())) {
            assertThatThrownBy(() -> ClickHouseTypes.fromFlink(t))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "Flink type "
                                    + t.asSummaryString()
                                    + " has no ClickHouse column type here;"
                                    + " give the table's DDL with the 'ddl' option");
        }
        // inside a composite too: the message names the element's type
        assertThatThrownBy(() -> ClickHouseTypes.fromFlink(new ArrayType(false, new TimeType(0))))
                .hasMessageStartingWith("Flink type TIME(0) has no ClickHouse column type");
    }

    @Test
    void quoteEscapesBackQuotesAndBackslashes() {
        assertThat(ClickHouseTypes.quote("plain")).isEqualTo("`plain`");
        assertThat(ClickHouseTypes.quote("a`b\\c")).isEqualTo("`a\\`b\\\\c`");
    }

    /** ClickHouse itself takes every column type fromFlink writes, with the quoted names. */
    @Test
    void chDbAcceptsTheDerivedColumnTypes(@TempDir Path dir) {
        List<LogicalType> types =
                List.of(
                        new BooleanType(true),
                        new DecimalType(true, 38, 18),
                        new DateType(true),
                        new TimestampType(true, 9),
                        new LocalZonedTimestampType(false, 3),
                        new ArrayType(true, new VarCharType(true, 3)),
                        new MapType(true, new VarCharType(true, 5), new BigIntType(true)),
                        new MultisetType(false, new DoubleType(false)),
                        row(true, "name"));
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            for (LogicalType t : types) {
                String type = ClickHouseTypes.fromFlink(t);
                String clickHouseName =
                        chdb.query(
                                        "SELECT toTypeName(defaultValueOfTypeName("
                                                + literal(type)
                                                + "))")
                                .replace("\\n", "\n")
                                .replace("\\'", "'")
                                .replace("\\\\", "\\");
                // ClickHouse's own name of the type (TSV-escaped, Tuples over several lines) is
                // the type this project parses
                assertThat(DataTypeParser.parse(clickHouseName).name())
                        .as(type)
                        .isEqualTo(DataTypeParser.parse(type).name());
            }
            // the quoted names: a column and a Tuple element named with a back quote
            chdb.execute(
                    "CREATE TABLE t (`we\\`ird` "
                            + ClickHouseTypes.fromFlink(row(false))
                            + ") ENGINE = MergeTree ORDER BY tuple()");
            chdb.execute("INSERT INTO t VALUES ((7, 'x', [1.5]))");
            assertThat(chdb.query("SELECT tupleElement(`we\\`ird`, 'na`me') FROM t", "TSVRaw"))
                    .isEqualTo("x\n");
        }
    }

    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** A ROW whose second field is named with a back quote. */
    private static RowType row(boolean nullable) {
        return row(nullable, "na`me");
    }

    private static RowType row(boolean nullable, String secondName) {
        return new RowType(
                nullable,
                List.of(
                        new RowType.RowField("id", new BigIntType(false)),
                        new RowType.RowField(
                                secondName, new VarCharType(true, VarCharType.MAX_LENGTH)),
                        new RowType.RowField("xs", new ArrayType(false, new DoubleType(false)))));
    }
}
