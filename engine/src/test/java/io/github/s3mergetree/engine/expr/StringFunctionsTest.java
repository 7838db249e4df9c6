package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code lengthUTF8} and {@code xxHash32} against chDB: result types and values over String,
 * FixedString, Nullable and LowCardinality inputs of ASCII, multi-byte UTF-8 and long values, and
 * in a DEFAULT / MATERIALIZED clause of a DDL.
 */
class StringFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    private static String[] values() {
        List<String> out = new ArrayList<>(List.of(HashAndConversionFunctionsTest.strings(60, 7)));
        out.addAll(List.of("ÄÖÜ ß", "日本語テキスト", "emoji 😀 and 🎉", "mixed ascii and ü", "\u0000a"));
        return out.toArray(new String[0]);
    }

    @Test
    void valuesAndTypesMatchChDb() {
        String[] strings = values();
        boolean[] nulls = new boolean[strings.length];
        for (int i = 0; i < nulls.length; i += 3) {
            nulls[i] = true;
        }
        List<String> failures = new ArrayList<>();
        for (String type :
                List.of(
                        "String",
                        "FixedString(40)",
                        "Nullable(String)",
                        "LowCardinality(String)",
                        "LowCardinality(Nullable(String))")) {
            DataType t = DataTypeParser.parse(type);
            String[] in = strings;
            if (type.startsWith("FixedString")) {
                in = new String[strings.length];
                for (int i = 0; i < in.length; i++) {
                    byte[] b = strings[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    in[i] = b.length <= 40 ? strings[i] : "fits " + i;
                }
            }
            ExprOracle.Input input =
                    new ExprOracle.Input(
                            "s", t, null, in, type.contains("Nullable") ? nulls : null);
            for (String f :
                    List.of(
                            "lengthUTF8(s)",
                            "CHAR_LENGTH(s)",
                            "character_length(s)",
                            "xxHash32(s)",
                            "lengthUTF8(s) + 1",
                            "xxHash32(s) % 1000")) {
                ExprOracle.Outcome o = oracle.compare(f, List.of(input), ZoneOffset.UTC);
                for (String m : o.mismatches()) {
                    failures.add(f + " over " + type + ": " + m);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void argumentsClickHouseRefusesAreRefused() {
        Map<String, DataType> cols =
                Map.of("s", DataTypeParser.parse("String"), "n", DataTypes.UINT32);
        assertThatThrownBy(() -> ExprParser.parse("lengthUTF8(n)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("Illegal type UInt32 of argument 1 of function lengthUTF8");
        assertThatThrownBy(() -> ExprParser.parse("lengthUTF8(s, s)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("lengthUTF8");
        assertThatThrownBy(() -> ExprParser.parse("xxHash32(n)", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("xxHash32 of UInt32 is not supported");
    }

    /** A DDL chDB accepts with them in MATERIALIZED / DEFAULT (their values: the test above). */
    @Test
    void materializedAndDefaultColumnsUseThem() {
        TableSchema s =
                TableSchema.parse(
                        "CREATE TABLE t (body String, chars UInt64 MATERIALIZED lengthUTF8(body),"
                                + " bucket UInt32 DEFAULT xxHash32(body) % 16)"
                                + " ENGINE = MergeTree ORDER BY (bucket, chars)");
        assertThat(s.column("chars").orElseThrow().defaultExpression().orElseThrow().toSql())
                .isEqualTo("lengthUTF8(body)");
        db.execute(
                "CREATE TABLE string_functions (body String, chars UInt64 MATERIALIZED"
                        + " lengthUTF8(body), bucket UInt32 DEFAULT xxHash32(body) % 16)"
                        + " ENGINE = MergeTree ORDER BY (bucket, chars)");
    }
}
