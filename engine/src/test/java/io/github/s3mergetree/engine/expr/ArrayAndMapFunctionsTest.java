package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Array and Map values in expressions against chDB over generated rows: {@code length}, {@code
 * empty}, {@code notEmpty}, {@code a[i]} (1-based, negative, 0, out of range, Nullable and UInt64
 * indexes), {@code has}, {@code indexOf}, {@code arrayDistinct}, {@code m[k]} (missing keys,
 * duplicate keys, integer keys), {@code mapKeys}, {@code mapValues}, {@code mapContains}, {@code
 * splitByChar}, {@code splitByString}, {@code arrayStringConcat} and {@code arraySort}, over empty
 * arrays, NULL elements, LowCardinality elements and keys and unicode strings.
 */
class ArrayAndMapFunctionsTest {
    @ChDbSession static ChDb db;
    static ArrayOracle oracle;

    private static final String[] WORDS = {
        "", "a", "b", "service.name", "é", "日本語", "a'b", "x\\y", "tab\tz", "😀", "A"
    };

    @BeforeAll
    static void start() {
        oracle = new ArrayOracle(db);
    }

    private static List<Object> rows(int n, Supplier<Object> f) {
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(f.get());
        }
        return out;
    }

    private static List<Object> array(Random r, Supplier<Object> element) {
        int len = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(5);
        List<Object> a = new ArrayList<>();
        for (int i = 0; i < len; i++) {
            a.add(element.get());
        }
        return a;
    }

    private static Object word(Random r, boolean nulls) {
        if (nulls && r.nextInt(5) == 0) {
            return null;
        }
        return WORDS[r.nextInt(WORDS.length)];
    }

    private static ArrayOracle.Input input(String name, String type, List<Object> values) {
        DataType t = DataTypeParser.parse(type);
        return new ArrayOracle.Input(name, t, values);
    }

    private static void assertAgree(List<String> exprs, List<ArrayOracle.Input> inputs) {
        List<String> failures = new ArrayList<>();
        for (String e : exprs) {
            failures.addAll(oracle.compare(e, inputs));
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void arraysOfStringsMatchChDb() {
        Random r = new Random(47);
        int n = 80;
        for (String type :
                List.of(
                        "Array(String)",
                        "Array(Nullable(String))",
                        "Array(LowCardinality(String))",
                        "Array(LowCardinality(Nullable(String)))")) {
            boolean nulls = type.contains("Nullable");
            List<ArrayOracle.Input> inputs =
                    List.of(
                            input("a", type, rows(n, () -> array(r, () -> word(r, nulls)))),
                            input("i", "Int8", rows(n, () -> (long) (r.nextInt(13) - 6))),
                            input(
                                    "u",
                                    "UInt64",
                                    rows(
                                            n,
                                            () ->
                                                    r.nextInt(6) == 0
                                                            ? Long.MIN_VALUE + r.nextInt(3)
                                                            : (long) r.nextInt(7))),
                            input(
                                    "ni",
                                    "Nullable(Int16)",
                                    rows(
                                            n,
                                            () ->
                                                    r.nextInt(4) == 0
                                                            ? null
                                                            : (long) (r.nextInt(9) - 4))),
                            input("s", "String", rows(n, () -> word(r, false))),
                            input("ns", "Nullable(String)", rows(n, () -> word(r, true))),
                            input("ls", "LowCardinality(String)", rows(n, () -> word(r, false))));
            assertAgree(
                    List.of(
                            "length(a)",
                            "empty(a)",
                            "notEmpty(a)",
                            "a[1]",
                            "a[-1]",
                            "a[3]",
                            "a[-3]",
                            "a[i]",
                            "a[u]",
                            "a[ni]",
                            "a[length(a)]",
                            "arrayElement(a, 2)",
                            "has(a, s)",
                            "has(a, 'a')",
                            "has(a, ns)",
                            "has(a, ls)",
                            "indexOf(a, s)",
                            "indexOf(a, ns)",
                            "indexOf(a, 'é')",
                            "arrayDistinct(a)",
                            "length(arrayDistinct(a))",
                            "arrayDistinct(a)[1]",
                            "arrayStringConcat(a, ',')",
                            "arrayStringConcat(a)",
                            "arraySort(a)",
                            "arraySort(arrayDistinct(a))",
                            "LENGTH(a) + 1"),
                    inputs);
        }
    }

    @Test
    void arraysOfNumbersMatchChDb() {
        Random r = new Random(8);
        int n = 80;
        long[] pool = {0, 1, 2, -1, 127, -128, 255, 300, 65535, 1L << 40};
        for (String type :
                List.of(
                        "Array(Int32)",
                        "Array(UInt8)",
                        "Array(UInt64)",
                        "Array(Nullable(Int8))",
                        "Array(Int64)")) {
            DataType t = DataTypeParser.parse(type);
            boolean nulls = type.contains("Nullable");
            Supplier<Object> element =
                    () -> {
                        if (nulls && r.nextInt(5) == 0) {
                            return null;
                        }
                        long v = pool[r.nextInt(pool.length)];
                        DataType base = ComparableValues.stripLowCardinalityDeep(t);
                        String e = base.name();
                        // values in the element type's range, as the literal would be converted
                        if (e.contains("UInt8")) {
                            return v & 0xFF;
                        }
                        if (e.contains("Int8")) {
                            return (long) (byte) v;
                        }
                        if (e.contains("Int32")) {
                            return (long) (int) v;
                        }
                        return v;
                    };
            List<ArrayOracle.Input> inputs =
                    List.of(
                            input("a", type, rows(n, () -> array(r, element))),
                            input("x", "Int64", rows(n, () -> pool[r.nextInt(pool.length)])),
                            input("i", "Int32", rows(n, () -> (long) (r.nextInt(13) - 6))));
            assertAgree(
                    List.of(
                            "has(a, x)",
                            "indexOf(a, x)",
                            "has(a, 1)",
                            "has(a, -1)",
                            "has(a, 255)",
                            "has(a, 1.0)",
                            "has(a, 2.5)",
                            "indexOf(a, 300)",
                            "a[i]",
                            "a[-2]",
                            "arrayDistinct(a)",
                            "arraySort(a)",
                            "length(a)"),
                    inputs);
        }
    }

    @Test
    void arraysOfFloatsMatchChDb() {
        Random r = new Random(21);
        int n = 80;
        double[] pool = {0.0, -0.0, 1.0, 1.5, Double.NaN, -1.0, Double.POSITIVE_INFINITY, 255.0};
        for (String type :
                List.of("Array(Float64)", "Array(Float32)", "Array(Nullable(Float64))")) {
            boolean nulls = type.contains("Nullable");
            Supplier<Object> element =
                    () -> nulls && r.nextInt(5) == 0 ? null : pool[r.nextInt(pool.length)];
            List<ArrayOracle.Input> inputs =
                    List.of(
                            input("a", type, rows(n, () -> array(r, element))),
                            input("x", "Int64", rows(n, () -> (long) (r.nextInt(5) - 2))));
            assertAgree(
                    List.of(
                            "has(a, x)",
                            "indexOf(a, x)",
                            "has(a, 1.5)",
                            "has(a, 255)",
                            "a[x]",
                            "arrayDistinct(a)",
                            "length(arrayDistinct(a))",
                            "arraySort(a)"),
                    inputs);
        }
    }

    @Test
    void mapsMatchChDb() {
        Random r = new Random(1);
        int n = 80;
        String[] keys = {"a", "b", "service.name", "é", "日本語", "missing", ""};
        for (String type :
                List.of(
                        "Map(String, String)",
                        "Map(LowCardinality(String), Nullable(String))",
                        "Map(String, UInt64)",
                        "Map(String, LowCardinality(String))",
                        "Map(LowCardinality(String), Array(String))")) {
            DataType t = DataTypeParser.parse(type);
            String value = ComparableValues.stripLowCardinalityDeep(t).name();
            Supplier<Object> v =
                    () -> {
                        if (value.contains("Array(String)")) {
                            return array(r, () -> word(r, false));
                        }
                        if (value.contains("UInt64")) {
                            return r.nextInt(5) == 0 ? -1L : (long) r.nextInt(1000);
                        }
                        return word(r, value.contains("Nullable"));
                    };
            Supplier<Object> map =
                    () -> {
                        List<Object> m = new ArrayList<>();
                        int len = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(4);
                        for (int i = 0; i < len; i++) {
                            // keys may repeat: the first entry wins
                            m.add(
                                    java.util.Arrays.asList(
                                            keys[r.nextInt(keys.length - 1)], v.get()));
                        }
                        return m;
                    };
            List<ArrayOracle.Input> inputs =
                    List.of(
                            input("m", type, rows(n, map)),
                            input("k", "String", rows(n, () -> keys[r.nextInt(keys.length)])),
                            input(
                                    "nk",
                                    "Nullable(String)",
                                    rows(
                                            n,
                                            () ->
                                                    r.nextInt(4) == 0
                                                            ? null
                                                            : keys[r.nextInt(keys.length)])),
                            input(
                                    "lk",
                                    "LowCardinality(String)",
                                    rows(n, () -> keys[r.nextInt(keys.length)])));
            assertAgree(
                    List.of(
                            "m['a']",
                            "m['service.name']",
                            "m['missing']",
                            "m[k]",
                            "m[nk]",
                            "m[lk]",
                            "mapKeys(m)",
                            "mapValues(m)",
                            "mapContains(m, k)",
                            "mapContains(m, 'é')",
                            "mapContains(m, nk)",
                            "mapContains(m, lk)",
                            "length(m)",
                            "empty(m)",
                            "notEmpty(m)",
                            "has(mapKeys(m), k)",
                            "length(mapKeys(m))",
                            "mapKeys(m)[1]",
                            "arraySort(mapKeys(m))"),
                    inputs);
        }
    }

    @Test
    void mapsWithIntegerKeysMatchChDb() {
        Random r = new Random(3);
        int n = 60;
        long[] pool = {0, 1, 2, 3, 255, 128};
        List<ArrayOracle.Input> inputs =
                List.of(
                        input(
                                "m",
                                "Map(UInt8, String)",
                                rows(
                                        n,
                                        () -> {
                                            List<Object> m = new ArrayList<>();
                                            int len = r.nextInt(4);
                                            for (int i = 0; i < len; i++) {
                                                m.add(
                                                        List.of(
                                                                pool[r.nextInt(pool.length)],
                                                                word(r, false)));
                                            }
                                            return m;
                                        })),
                        input("x", "Int16", rows(n, () -> (long) (r.nextInt(600) - 300))),
                        input("y", "UInt8", rows(n, () -> pool[r.nextInt(pool.length)])));
        assertAgree(
                List.of(
                        "m[1]",
                        "m[255]",
                        "m[y]",
                        "m[x]",
                        "mapContains(m, y)",
                        "mapContains(m, x)",
                        "mapContains(m, 1)",
                        "mapKeys(m)",
                        "has(mapKeys(m), x)"),
                inputs);
    }

    @Test
    void splittingStringsMatchesChDb() {
        Random r = new Random(5);
        int n = 60;
        String[] texts = {
            "a,b", ",a,,b,", "", "é,日本語", "x", "a,,", "ab::cd::", "::", "a::b,c", "😀,😀", ","
        };
        for (String type : List.of("String", "Nullable(String)", "LowCardinality(String)")) {
            boolean nulls = type.contains("Nullable");
            List<ArrayOracle.Input> inputs =
                    List.of(
                            input(
                                    "s",
                                    type,
                                    rows(
                                            n,
                                            () ->
                                                    nulls && r.nextInt(5) == 0
                                                            ? null
                                                            : texts[r.nextInt(texts.length)])));
            assertAgree(
                    List.of(
                            "splitByChar(',', s)",
                            "splitByChar(',', s, 2)",
                            "splitByChar(',', s, 0)",
                            "splitByString('::', s)",
                            "splitByString('', s)",
                            "splitByString(',', s, 1)",
                            "length(splitByChar(',', s))",
                            "splitByChar(',', s)[1]",
                            "splitByChar(',', s)[-1]",
                            "arrayStringConcat(splitByChar(',', s), '|')",
                            "has(splitByChar(',', s), 'a')",
                            "arrayDistinct(splitByChar(',', s))",
                            "length(s)",
                            "empty(s)",
                            "notEmpty(s)"),
                    inputs);
        }
    }

    @Test
    void arrayLiteralsMatchChDb() {
        Random r = new Random(11);
        int n = 60;
        List<ArrayOracle.Input> inputs =
                List.of(
                        input("s", "String", rows(n, () -> word(r, false))),
                        input("i", "Int8", rows(n, () -> (long) (r.nextInt(9) - 4))),
                        input(
                                "x",
                                "Int32",
                                rows(n, () -> r.nextBoolean() ? -1L : (long) r.nextInt(3))),
                        input("a", "Array(String)", rows(n, () -> array(r, () -> word(r, false)))));
        assertAgree(
                List.of(
                        "['a', s]",
                        "[s, 'é', s][i]",
                        "length([1, 2, 3])",
                        "[1, 2, 300]",
                        "[i, 1000]",
                        "[1, -1]",
                        "has(['a', 'b', 'service.name'], s)",
                        "arrayStringConcat(['x', s], '-')",
                        "indexOf(a, ['é', s][1])",
                        "arrayDistinct([s, s, 'a'])",
                        "array(s, 'b')",
                        "has([4294967295, 1], x)",
                        "indexOf([255, 2], x)",
                        "has([-1, 1], x)"),
                inputs);
    }

    /** {@code DEFAULT []} and {@code DEFAULT map()}, common in real DDL, give empty values. */
    @Test
    void emptyArrayAndMapDefaults() {
        String ddl =
                "CREATE TABLE empty_defaults (id UInt32, tags Array(LowCardinality(String)) DEFAULT"
                        + " [], attrs Map(String, String) DEFAULT map()) ENGINE = MergeTree ORDER BY"
                        + " id";
        io.github.s3mergetree.engine.ddl.TableSchema schema =
                io.github.s3mergetree.engine.ddl.TableSchema.parse(ddl);
        Expr tags = schema.column("tags").orElseThrow().defaultExpression().orElseThrow();
        Expr attrs = schema.column("attrs").orElseThrow().defaultExpression().orElseThrow();
        assertThat(tags.toSql()).isEqualTo("[]");
        assertThat(attrs.toSql()).isEqualTo("map()");
        io.github.s3mergetree.engine.column.Block block =
                new io.github.s3mergetree.engine.column.Block(
                        List.of("id"),
                        List.of(DataTypeParser.parse("UInt32")),
                        List.of(Vectors.fromLongs(new long[3], 3, DataTypeParser.parse("UInt32"))));
        for (Expr e : List.of(tags, attrs)) {
            io.github.s3mergetree.engine.column.ArrayColumn c =
                    (io.github.s3mergetree.engine.column.ArrayColumn)
                            e.evaluate(block, EvaluationContext.utc());
            assertThat(c.size()).isEqualTo(3);
            assertThat(c.end(2)).isZero();
        }
        db.execute(ddl);
        assertThatThrownBy(() -> ExprParser.parse("length([])", Map.of()))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("Array(Nothing)");
    }

    @Test
    void refusesWhatClickHouseRefuses() {
        Map<String, DataType> cols =
                Map.of(
                        "a", DataTypeParser.parse("Array(String)"),
                        "ai", DataTypeParser.parse("Array(UInt8)"),
                        "m", DataTypeParser.parse("Map(String, UInt8)"),
                        "s", DataTypeParser.parse("String"),
                        "f", DataTypeParser.parse("Float64"));
        for (String bad :
                List.of(
                        "a[f]",
                        "a[0]",
                        "splitByChar(',,', s)",
                        "splitByChar(s, s)",
                        "has(ai, 'x')",
                        "m[1]",
                        "arrayStringConcat(a, s)",
                        "length(f)")) {
            assertThatThrownBy(() -> ExprParser.parse(bad, cols))
                    .as(bad)
                    .isInstanceOf(ExprException.class);
            String sql =
                    "SELECT "
                            + bad
                            + " FROM (SELECT materialize(['x']) AS a, materialize([toUInt8(1)]) AS ai,"
                            + " materialize(map('k', toUInt8(1))) AS m, materialize('s') AS s,"
                            + " materialize(1.5) AS f)";
            assertThatThrownBy(() -> db.query(sql)).as(bad).isInstanceOf(ChDbException.class);
        }
        assertThatThrownBy(() -> ExprParser.parse("a[f]", cols))
                .hasMessageContaining("must be integer, got 'Float64'");
        assertThatThrownBy(() -> ExprParser.parse("splitByChar(',,', s)", cols))
                .hasMessageContaining("Must be exactly one byte, got ',,'");
    }

    @Test
    void subscriptsPrintAsClickHouseDoes() {
        Map<String, DataType> cols =
                Map.of(
                        "a", DataTypeParser.parse("Array(String)"),
                        "m", DataTypeParser.parse("Map(String, String)"));
        Expr e = ExprParser.parse("a[-1]", cols);
        assertThat(e.toSql()).isEqualTo("a[-1]");
        assertThat(e.columnName()).isEqualTo("arrayElement(a, -1)");
        Expr m = ExprParser.parse("lowerUTF8(m['service.name'])", cols);
        assertThat(m.toSql()).isEqualTo("lowerUTF8(m['service.name'])");
        assertThat(ExprParser.parse(m.toSql(), cols)).isEqualTo(m);
        assertThat(m.resultType().name()).isEqualTo("String");
        assertThat(ExprParser.parse("splitByChar(',', m['k'])[2]", cols).toSql())
                .isEqualTo("splitByChar(',', m['k'])[2]");
    }
}
