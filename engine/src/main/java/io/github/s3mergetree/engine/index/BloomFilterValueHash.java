package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.function.LongConsumer;

/**
 * The 64-bit hash of each value that the {@code bloom_filter} index puts into its filter
 * (ClickHouse's {@code BloomFilterHash::hashWithColumn}).
 *
 * <p>As ClickHouse: Nullable and LowCardinality are looked through (a NULL hashes as the nested
 * column's default value); numbers, dates, enums, UUIDs and IPs are {@code DefaultHash64} of their
 * in-memory bytes ({@code intHash64} of the value zero-extended to 64 bits, 128-bit values the XOR
 * of their halves first), Float32 widened to Float64 first; String and FixedString are CityHash64
 * (v1.0.2) of their bytes. An Array contributes the hashes of all its elements; rows whose arrays
 * are all empty contribute the single hash 0. An Array of Nullable is refused as ClickHouse refuses
 * it on insert.
 */
final class BloomFilterValueHash {
    private BloomFilterValueHash() {}

    /**
     * Passes the hash of each value of rows {@code [from, to)} of {@code column} to {@code out}.
     */
    static void hash(DataType type, Column column, int from, int to, LongConsumer out) {
        if (type instanceof ArrayType a) {
            if (a.element() instanceof NullableType) {
                // ClickHouse creates such an index but refuses every insert (hashWithColumn)
                throw new IllegalArgumentException(
                        "Unexpected type " + type.name() + " of bloom filter index.");
            }
            ArrayColumn ac = (ArrayColumn) column;
            int start = ac.start(from);
            int end = ac.end(to - 1);
            if (start == end) {
                out.accept(0);
                return;
            }
            hashPrimitive(a.element(), ac.elements(), start, end, out);
            return;
        }
        hashPrimitive(type, column, from, to, out);
    }

    private static void hashPrimitive(
            DataType type, Column column, int from, int to, LongConsumer out) {
        if (type instanceof LowCardinalityType lc) {
            hashPrimitive(lc.nested(), column, from, to, out);
            return;
        }
        if (type instanceof NullableType n) {
            hashPrimitive(n.nested(), ((NullableColumn) column).nested(), from, to, out);
            return;
        }
        switch (type.physicalType()) {
            case BYTE -> {
                ByteColumn c = (ByteColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(c.get(r) & 0xFFL));
                }
            }
            case SHORT -> {
                ShortColumn c = (ShortColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(c.get(r) & 0xFFFFL));
                }
            }
            case INT -> {
                IntColumn c = (IntColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(c.get(r) & 0xFFFFFFFFL));
                }
            }
            case LONG -> {
                LongColumn c = (LongColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(c.get(r)));
                }
            }
            case FLOAT -> {
                FloatColumn c = (FloatColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(Double.doubleToRawLongBits((double) c.get(r))));
                }
            }
            case DOUBLE -> {
                DoubleColumn c = (DoubleColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(intHash64(Double.doubleToRawLongBits(c.get(r))));
                }
            }
            case STRING -> {
                StringColumn c = (StringColumn) column;
                for (int r = from; r < to; r++) {
                    out.accept(CityHash102.cityHash64(c.bytes(), c.start(r), c.length(r)));
                }
            }
            case FIXED_BYTES -> {
                FixedBytesColumn c = (FixedBytesColumn) column;
                int w = c.width();
                for (int r = from; r < to; r++) {
                    out.accept(hashFixed(type, c.data(), r * w, w));
                }
            }
            default ->
                    throw new IllegalArgumentException(
                            "Unexpected type " + type.name() + " of bloom filter index");
        }
    }

    private static long hashFixed(DataType type, byte[] data, int off, int width) {
        if (type.kind() == TypeKind.FIXED_STRING) {
            return CityHash102.cityHash64(data, off, width);
        }
        // DefaultHash64 of a 128- or 256-bit value: intHash64 of the XOR of its 64-bit words
        // (ClickHouse's 256-bit form XORs key, key >> 64, key >> 128 and key >> 256, the last 0)
        long x = 0;
        int words = width == 32 ? 3 : width / 8;
        for (int i = 0; i < words; i++) {
            x ^= word(data, off + 8 * i);
        }
        return intHash64(x);
    }

    private static long word(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xFFL);
        }
        return v;
    }

    /** MurmurHash3's 64-bit finalizer, ClickHouse's {@code intHash64}. */
    static long intHash64(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
