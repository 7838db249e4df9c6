package io.github.s3mergetree.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * {@code match}, {@code extract}, {@code replaceRegexpOne}, {@code replaceRegexpAll} (RE2 through
 * RE2/J) and {@code lowerUTF8} / {@code upperUTF8} against chDB over ASCII, multi-byte UTF-8,
 * newlines, empty strings and the patterns real DEFAULT / MATERIALIZED clauses use (empty matches,
 * groups, backslash replacements, plain-text needles, case-insensitive flags); invalid patterns and
 * empty matches before multi-byte characters are refused.
 */
class RegexFunctionsTest {
    @ChDbSession static ChDb db;
    static ExprOracle oracle;

    @BeforeAll
    static void start() {
        oracle = new ExprOracle(db);
    }

    static String[] values() {
        List<String> out =
                new ArrayList<>(
                        List.of(
                                "https://example.com/path?q=1",
                                "http://x.org",
                                "user@example.com",
                                "  padded  ",
                                "a\nb",
                                "abc123def456",
                                "ÄÖÜ ß straße İstanbul Σίσυφος",
                                "日本語テキスト",
                                "emoji 😀 and 🎉",
                                "aaa",
                                "Hello, World!",
                                "ǆ ﬁ ẞ",
                                "x",
                                "end"));
        out.addAll(List.of(HashAndConversionFunctionsTest.strings(30, 3)));
        out.removeIf(String::isEmpty);
        out.add("");
        out.add("last");
        return out.toArray(new String[0]);
    }

    @Test
    void valuesMatchChDb() {
        String[] v = values();
        boolean[] nulls = new boolean[v.length];
        for (int i = 0; i < v.length; i += 4) {
            nulls[i] = true;
        }
        List<String> failures = new ArrayList<>();
        String[] asciiValues =
                java.util.Arrays.stream(v)
                        .filter(x -> x.chars().allMatch(c -> c < 0x80))
                        .toArray(String[]::new);
        for (String type : List.of("String", "Nullable(String)", "LowCardinality(String)")) {
            DataType t = DataTypeParser.parse(type);
            ExprOracle.Input in =
                    new ExprOracle.Input("s", t, null, v, type.contains("Nullable") ? nulls : null);
            ExprOracle.Input ascii =
                    new ExprOracle.Input(
                            "s",
                            t,
                            null,
                            asciiValues,
                            type.contains("Nullable") ? new boolean[asciiValues.length] : null);
            for (String f :
                    List.of(
                            "match(s, '^https?://')",
                            "match(s, '(?i)hello')",
                            "match(s, 'a.b')",
                            "match(s, '^.{3}$')",
                            "match(s, '\\\\d+')",
                            "extract(s, '[0-9]+')",
                            "extract(s, '://([^/]+)')",
                            "extract(s, '@(.*)$')",
                            "extract(s, 'z+')",
                            "replaceRegexpAll(s, '[0-9]', '#')",
                            "replaceRegexpAll(s, '^\\\\s+|\\\\s+$', '')",
                            "replaceRegexpAll(s, 'a*', '-')",
                            "replaceRegexpAll(s, 'o+', '\\\\\\\\')",
                            "replaceRegexpAll(s, 'o+', '\\\\x\\\\0')",
                            "replaceRegexpAll(s, 'o', '\\\\0\\\\\\\\')",
                            "replaceRegexpAll(s, '', 'x')",
                            "replaceRegexpAll(s, '(\\\\w)(\\\\w)', '\\\\2\\\\1')",
                            "replaceRegexpAll(s, '.', '\\\\0\\\\0')",
                            "replaceRegexpAll(s, 'o', '\\\\\\\\')",
                            "replaceRegexpOne(s, '(\\\\w+)://([^/?]+).*', '\\\\2')",
                            "replaceRegexpOne(s, 'a', 'A')",
                            "lowerUTF8(s)",
                            "upperUTF8(s)",
                            "lengthUTF8(upperUTF8(s))")) {
                // an empty match before a multi-byte character is refused (see below)
                ExprOracle.Input input = f.contains("'a*'") ? ascii : in;
                for (String m : oracle.compare(f, List.of(input), ZoneOffset.UTC).mismatches()) {
                    failures.add(f + " over " + type + ": " + m);
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void refusesWhatClickHouseRefuses() {
        Map<String, DataType> cols = Map.of("s", DataTypes.STRING_TYPE, "n", DataTypes.UINT32);
        assertThatThrownBy(() -> ExprParser.parse("match(s, '(')", cols))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("cannot compile re2: (");
        assertThatThrownBy(() -> ExprParser.parse("match(n, 'a')", cols))
                .hasMessageContaining("Illegal type UInt32 of argument 1 of function match");
        assertThatThrownBy(() -> ExprParser.parse("match(s, s)", cols))
                .hasMessageContaining("must be a constant string");
        assertThatThrownBy(() -> ExprParser.parse("replaceRegexpOne(s, '(a)', '\\\\2')", cols))
                .hasMessageContaining("invalid substitution");
        Expr empty = ExprParser.parse("replaceRegexpAll(s, 'x*', '-')", cols);
        io.github.s3mergetree.engine.column.StringColumn c =
                new io.github.s3mergetree.engine.column.StringColumn(1);
        c.add("日本");
        io.github.s3mergetree.engine.column.Block b =
                new io.github.s3mergetree.engine.column.Block(
                        List.of("s", "n"),
                        List.of(DataTypes.STRING_TYPE, DataTypes.UINT32),
                        List.of(c, Vectors.fromLongs(new long[1], 1, DataTypes.UINT32)));
        assertThatThrownBy(() -> empty.evaluate(b, EvaluationContext.utc()))
                .isInstanceOf(ExprException.class)
                .hasMessageContaining("matches empty text before the multi-byte character");
        for (String refused :
                List.of(
                        "match('a', '(')",
                        "replaceRegexpOne('a', '(a)', '\\\\2')",
                        "match(1, 'a')")) {
            assertThatThrownBy(() -> db.query("SELECT " + refused)).as(refused).isNotNull();
        }
    }
}
