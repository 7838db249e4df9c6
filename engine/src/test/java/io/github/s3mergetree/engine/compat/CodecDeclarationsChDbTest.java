package io.github.s3mergetree.engine.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code CODEC(...)} declarations judged by chDB (ClickHouse 26.7, without {@code
 * allow_suspicious_codecs}): a declaration ClickHouse accepts in {@code CREATE TABLE} is accepted
 * here, one it refuses is refused with ClickHouse's message (case-sensitive names, parameters and
 * their ranges, per-type applicability, the order and combination rules).
 */
class CodecDeclarationsChDbTest {
    @ChDbSession static ChDb ch;

    private static final AtomicInteger TABLES = new AtomicInteger();

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                // accepted
                "Int64 CODEC(Delta, ZSTD)",
                "Int64 CODEC(DoubleDelta, LZ4)",
                "Int64 CODEC(Delta(4), ZSTD(3))",
                "UInt32 CODEC(T64)",
                "UInt32 CODEC(T64, LZ4)",
                "Int16 CODEC(T64('bit'), ZSTD)",
                "Float64 CODEC(Gorilla)",
                "Float64 CODEC(Gorilla, ZSTD(1))",
                "Float32 CODEC(FPC)",
                "Float64 CODEC(FPC(12))",
                "Float32 CODEC(FPC(12, 4))",
                "Int64 CODEC(ZSTD(1))",
                "Int64 CODEC(ZSTD(0))",
                "String CODEC(LZ4HC(9))",
                "String CODEC(LZ4HC(13))",
                "String CODEC(LZ4HC)",
                "String CODEC(NONE)",
                "Int64 CODEC(Default)",
                "Int64 CODEC(Delta, Default)",
                "Int64 CODEC(Delta, Delta, ZSTD)",
                "Int64 CODEC(DoubleDelta(4), LZ4)",
                "Float32 CODEC(Gorilla(8))",
                "Float64 CODEC(DoubleDelta)",
                "Float64 CODEC(Gorilla, Delta, LZ4)",
                "Int64 CODEC(Delta(8), T64, LZ4)",
                "Nullable(Int32) CODEC(Delta, ZSTD)",
                "Array(Float64) CODEC(Gorilla)",
                "Array(UInt16) CODEC(T64)",
                "Tuple(a Int32, b Int64) CODEC(Delta, ZSTD)",
                "Map(String, UInt64) CODEC(ZSTD(3))",
                "DateTime64(3) CODEC(T64, ZSTD)",
                "DateTime CODEC(DoubleDelta, ZSTD)",
                "Date CODEC(Delta, LZ4)",
                "Decimal(18, 4) CODEC(T64, LZ4)",
                "Bool CODEC(T64)",
                "IPv4 CODEC(T64)",
                "FixedString(8) CODEC(Delta, LZ4)",
                "LowCardinality(String) CODEC(ZSTD)",
                // refused
                "Int64 CODEC(Delta(3), LZ4)",
                "Int64 CODEC(DoubleDelta(3))",
                "Int64 CODEC(ZSTD(23))",
                "Int64 CODEC(NONE, LZ4)",
                "Int64 CODEC(Delta(4), NONE)",
                "Float64 CODEC(T64)",
                "Int64 CODEC(FPC)",
                "Int64 CODEC(zstd)",
                "Int64 CODEC(delta, LZ4)",
                "Int64 CODEC(LZ4, ZSTD)",
                "Int64 CODEC(ZSTD, Delta)",
                "Int64 CODEC(T64, ZSTD(3), LZ4)",
                "Int128 CODEC(Delta, LZ4)",
                "Int128 CODEC(T64)",
                "UUID CODEC(Delta, LZ4)",
                "Decimal(38, 3) CODEC(Gorilla)",
                "Nullable(String) CODEC(T64)",
                "String CODEC(Delta, ZSTD)",
                "Int64 CODEC(Delta)",
                "Int64 CODEC(Delta(4))",
                "Int64 CODEC(Gorilla)",
                "Int64 CODEC(Gorilla, LZ4)",
                "Float64 CODEC(Delta, Gorilla)",
                "Float64 CODEC(DoubleDelta, Gorilla)",
                "Float32 CODEC(FPC(0))",
                "Float32 CODEC(FPC(29))",
                "Int64 CODEC(LZ4(1))",
                "Int64 CODEC(Multiple)",
                "Int64 CODEC(Default(1))",
                "Float64 CODEC(Gorilla('x'))",
                "Int64 CODEC(T64('word'))",
                "Int64 CODEC(NoSuchCodec)",
                "Map(String, UInt64) CODEC(T64, ZSTD)",
            })
    void acceptedAndRefusedAsClickHouseDoes(String column) {
        String spec = "(k UInt32, v " + column + ") ENGINE = MergeTree ORDER BY k";
        String name = "d" + TABLES.incrementAndGet();
        String clickHouseError = null;
        try {
            ch.execute("CREATE TABLE " + name + " " + spec);
        } catch (ChDbException e) {
            clickHouseError = e.getMessage();
        }
        String ddl = "CREATE TABLE " + name + " " + spec;
        if (clickHouseError == null) {
            assertThat(TableLayouts.fromDdl(ddl).columnNames()).containsExactly("k", "v");
        } else {
            assertThatThrownBy(() -> TableLayouts.fromDdl(ddl))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(core(clickHouseError));
        }
    }

    /** ClickHouse's sentence without the code, the suggestion note and the final period. */
    private static String core(String error) {
        String s = error;
        int at = s.indexOf("DB::Exception: ");
        if (at >= 0) {
            s = s.substring(at + "DB::Exception: ".length());
        }
        for (String end : new String[] {" (Note:", ". (", " (BAD_", " (ILLEGAL", " (UNKNOWN"}) {
            int e = s.indexOf(end);
            if (e >= 0) {
                s = s.substring(0, e);
            }
        }
        s = s.strip();
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
