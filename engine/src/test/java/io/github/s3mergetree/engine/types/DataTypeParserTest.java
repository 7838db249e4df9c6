package io.github.s3mergetree.engine.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DataTypeParser} against chDB: for every family and the SQL aliases, the canonical name we
 * produce must be what ClickHouse prints in {@code system.columns} for the same declaration, and
 * declarations ClickHouse rejects must be rejected.
 */
class DataTypeParserTest {
    @ChDbSession static ChDb db;

    static final List<String> DECLARATIONS =
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
                    "bool",
                    "Boolean",
                    "BOOLEAN",
                    "String",
                    "FixedString(1)",
                    "FixedString(16)",
                    "Date",
                    "date",
                    "Date32",
                    "DateTime",
                    "datetime",
                    "DateTime('UTC')",
                    "DateTime('Asia/Kolkata')",
                    "DateTime32",
                    "DateTime64",
                    "DateTime64(0)",
                    "DateTime64(3)",
                    "DateTime64(9, 'America/New_York')",
                    "datetime64(6,'UTC')",
                    "DateTime(3)",
                    "DateTime(3, 'UTC')",
                    "TIMESTAMP",
                    "TIMESTAMP(3)",
                    "Decimal(9, 2)",
                    "Decimal(18,4)",
                    "Decimal(38, 10)",
                    "Decimal(76, 0)",
                    "Decimal",
                    "Decimal(20)",
                    "DECIMAL(10,2)",
                    "decimal32(2)",
                    "Decimal32(0)",
                    "Decimal64(4)",
                    "Decimal128(3)",
                    "Decimal256(5)",
                    "DEC(5,1)",
                    "NUMERIC(5)",
                    "FIXED(4,2)",
                    "UUID",
                    "IPv4",
                    "IPv6",
                    "INET4",
                    "inet6",
                    "Enum8('a' = 1, 'b' = 2)",
                    "Enum8('b' = 2, 'a' = 1)",
                    "Enum8('a' = -128, 'b' = 127)",
                    "Enum16('a' = -32768, 'z' = 32767)",
                    "Enum('x', 'y', 'z')",
                    "ENUM('q' = 300)",
                    "enum('a' = 1, 'b')",
                    "Enum8('it''s' = 1, 'back\\\\slash' = 2)",
                    "Enum8('a' = 0x10)",
                    "Enum16('a', 'b')",
                    "Enum('m', 'n' = 5)",
                    "Enum('a' = 127, 'b')",
                    "Enum('a' = -5, 'b', 'c')",
                    "enum8('a' = 1)",
                    "ENUM16('a' = 1)",
                    "Nullable(String)",
                    "Nullable(Decimal(9, 2))",
                    "Nullable(DateTime('UTC'))",
                    "LowCardinality(String)",
                    "LowCardinality(Nullable(String))",
                    "LowCardinality(FixedString(3))",
                    "LowCardinality(UUID)",
                    "Array(UInt8)",
                    "Array(Array(Nullable(String)))",
                    "Array(LowCardinality(String))",
                    "Tuple(UInt8, String)",
                    "Tuple(a UInt8, b Array(String))",
                    "Tuple(a Tuple(b Int8, c Int8))",
                    "Tuple(key String, value String, type String, date Date)",
                    "Map(String, UInt64)",
                    "Map(LowCardinality(String), Array(Nullable(Int8)))",
                    "Map(UInt32, Map(String, String))",
                    "Map(Date, String)",
                    "Array( Int8 )",
                    "Tuple(Int8, String,)",
                    "Nullable( UInt8 )",
                    "INT",
                    "int",
                    "Int",
                    "INTEGER",
                    "BIGINT",
                    "bigint",
                    "SMALLINT",
                    "TINYINT",
                    "MEDIUMINT",
                    "INT1",
                    "BYTE",
                    "SIGNED",
                    "UNSIGNED",
                    "INT UNSIGNED",
                    "int unsigned",
                    "INT(11)",
                    "INT(11) UNSIGNED",
                    "BIGINT UNSIGNED",
                    "TINYINT UNSIGNED",
                    "SMALLINT SIGNED",
                    "INTEGER SIGNED",
                    "YEAR",
                    "BIT",
                    "SET",
                    "Int8(3)",
                    "UInt64(20)",
                    "FLOAT",
                    "float",
                    "FLOAT(12)",
                    "REAL",
                    "SINGLE",
                    "DOUBLE",
                    "double",
                    "DOUBLE PRECISION",
                    "DOUBLE(4, 18)",
                    "Float32(5)",
                    "VARCHAR",
                    "VARCHAR(255)",
                    "varchar(10)",
                    "TEXT",
                    "text",
                    "CHAR",
                    "CHAR(3)",
                    "CHARACTER",
                    "CHAR VARYING",
                    "CHARACTER VARYING(10)",
                    "NATIONAL CHARACTER VARYING",
                    "NATIONAL CHAR",
                    "NCHAR",
                    "NVARCHAR",
                    "BLOB",
                    "LONGBLOB",
                    "LONGTEXT",
                    "MEDIUMTEXT",
                    "TINYTEXT",
                    "CLOB",
                    "BYTEA",
                    "VARBINARY",
                    "VARCHAR2",
                    "BINARY LARGE OBJECT",
                    "BINARY VARYING",
                    "CHARACTER LARGE OBJECT",
                    "String(255)",
                    "BINARY(4)",
                    "binary(2)",
                    "`UInt64`");

    @Test
    void canonicalNamesMatchSystemColumns() {
        List<String> failures = new ArrayList<>();
        StringBuilder cols = new StringBuilder();
        List<DataType> ours = new ArrayList<>();
        for (int i = 0; i < DECLARATIONS.size(); i++) {
            String d = DECLARATIONS.get(i);
            DataType t = DataTypeParser.parse(d);
            ours.add(t);
            if (i > 0) {
                cols.append(", ");
            }
            cols.append("c").append(i).append(' ').append(d);
            // round trip
            DataType back = DataTypeParser.parse(t.name());
            if (!back.name().equals(t.name())) {
                failures.add(d + ": " + t.name() + " parses back as " + back.name());
            }
        }
        db.execute("DROP TABLE IF EXISTS types_check");
        db.execute("CREATE TABLE types_check (" + cols + ") ENGINE = Memory");
        List<String[]> rows =
                db.rows(
                        "SELECT name, type FROM system.columns WHERE table = 'types_check'"
                                + " ORDER BY position");
        assertThat(rows).hasSize(DECLARATIONS.size());
        for (int i = 0; i < rows.size(); i++) {
            if (!rows.get(i)[1].equals(ours.get(i).name())) {
                failures.add(
                        DECLARATIONS.get(i)
                                + ": ours "
                                + ours.get(i).name()
                                + ", chDB "
                                + rows.get(i)[1]);
            }
        }
        // and toTypeName agrees for a value of each type
        for (int i = 0; i < DECLARATIONS.size(); i++) {
            String tn =
                    db.query(
                            "SELECT toTypeName(defaultValueOfTypeName("
                                    + quote(ours.get(i).name())
                                    + "))");
            String unescaped =
                    tn.replace("\\'", "'")
                            .replace("\\\\", "\\")
                            .replace("\\n", "\n")
                            .replaceAll("\\(\n\\s*", "(")
                            .replaceAll(",\n\\s*", ", ");
            if (!unescaped.equals(ours.get(i).name())) {
                failures.add(
                        DECLARATIONS.get(i)
                                + ": toTypeName "
                                + tn
                                + ", ours "
                                + ours.get(i).name());
            }
        }
        assertThat(failures).isEmpty();
    }

    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    static final List<String> INVALID =
            List.of(
                    "nullable(String)",
                    "string",
                    "Uint8",
                    "enum16('a')",
                    "Int9",
                    "FixedString(0)",
                    "FixedString(3, 4)",
                    "FixedString",
                    "Nullable(Array(Int8))",
                    "Nullable(Nullable(Int8))",
                    "Nullable(LowCardinality(String))",
                    "LowCardinality(Array(String))",
                    "LowCardinality(Decimal(9,2))",
                    "Map(Nullable(String), String)",
                    "Decimal(0, 0)",
                    "Decimal(77, 0)",
                    "Decimal(5, 6)",
                    "Decimal(10, 2, 3)",
                    "Decimal32",
                    "Decimal32(10)",
                    "Tuple(a String, Int8)",
                    "Tuple(a Int8, a String)",
                    "Enum('a' = 1, 'a' = 2)",
                    "Enum8('a' = 1, 'b' = 1)",
                    "Enum8('a' = 200)",
                    "Enum16('a' = 40000)",
                    "Enum8()",
                    "Enum8('a' = 1.5)",
                    "Enum('m', 'n' = 5, 'o')",
                    "Enum8('a' = 1, 'b' = 2, 'c')",
                    "Enum('m', 'n', 'o' = 10)",
                    "DateTime('Invalid/Zone')",
                    "DateTime64(10)",
                    "DateTime64('UTC')",
                    "DateTime64(3, 'UTC', 1)",
                    "Date(3)",
                    "UUID(1)",
                    "Bool(1)",
                    "IPv6(2)",
                    "String(a)",
                    "String(1, 2)",
                    "Array(UInt8",
                    "Array()",
                    "Tuple(a.b String)",
                    "UInt8 extra",
                    "");

    @Test
    void invalidDeclarationsAreRejectedLikeClickHouse() {
        List<String> failures = new ArrayList<>();
        for (String d : INVALID) {
            boolean chRejects;
            try {
                db.query("SELECT defaultValueOfTypeName(" + quote(d) + ")");
                chRejects = false;
            } catch (ChDbException e) {
                chRejects = true;
            }
            boolean weReject;
            try {
                DataTypeParser.parse(d);
                weReject = false;
            } catch (DataTypeParser.TypeParseException e) {
                weReject = true;
            }
            if (!chRejects && !d.equals("")) {
                failures.add(d + ": chDB accepts it (test list is wrong)");
            }
            if (!weReject) {
                failures.add(d + ": we accept it");
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void errorsNameTheConstructAndItsPosition() {
        assertThatThrownBy(() -> DataTypeParser.parse("Array(Nullable(Strin))"))
                .isInstanceOf(DataTypeParser.TypeParseException.class)
                .hasMessageContaining("Unknown data type family: Strin")
                .satisfies(
                        e ->
                                assertThat(((DataTypeParser.TypeParseException) e).position())
                                        .isEqualTo(15));
        assertThatThrownBy(() -> DataTypeParser.parse("Map(String UInt8)"))
                .hasMessageContaining("Expected ','")
                .satisfies(
                        e ->
                                assertThat(((DataTypeParser.TypeParseException) e).position())
                                        .isEqualTo(11));
        assertThatThrownBy(() -> DataTypeParser.parse("Enum8('a' = 300)"))
                .hasMessageContaining("exceeds range of Enum8");
        for (String json :
                List.of("JSON", "json", "JSON(max_dynamic_paths = 8)", "Object('json')")) {
            assertThatThrownBy(() -> DataTypeParser.parse(json))
                    .as(json)
                    .hasMessageContaining("is not supported by this engine")
                    .hasMessageContaining("store JSON documents in a String column");
        }
        assertThatThrownBy(() -> DataTypeParser.parse("Tuple(`a b` String)"))
                .hasMessageContaining("'a b'");
    }

    @Test
    void parsesPrefixesOfLongerText() {
        String text = "x Nullable(Int32) DEFAULT 5";
        DataTypeParser.Result r = DataTypeParser.parsePrefix(text, 1);
        assertThat(r.type().name()).isEqualTo("Nullable(Int32)");
        assertThat(text.substring(r.end())).isEqualTo(" DEFAULT 5");
        DataTypeParser.Result u = DataTypeParser.parsePrefix("a INT UNSIGNED NOT NULL", 2);
        assertThat(u.type()).isEqualTo(DataTypes.UINT32);
        assertThat(u.end()).isEqualTo(14);
        DataTypeParser.Result d = DataTypeParser.parsePrefix("DOUBLE NOT NULL", 0);
        assertThat(d.type()).isEqualTo(DataTypes.FLOAT64);
        assertThat(d.end()).isEqualTo(6);
    }
}
