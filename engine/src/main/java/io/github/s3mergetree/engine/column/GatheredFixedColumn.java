package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.io.LittleEndian;
import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed-width number column (8 to 64 bits) in sorted order that is never copied: row {@code i} is
 * row {@code rowOf[i]} of chunk {@code chunkOf[i]} of the insert block ({@link BlockChunks}). The
 * part writer encodes its values straight from the chunks into the serialization buffer ({@link
 * #encodeLittleEndian}), one column after another, so a sorted insert block is not copied into a
 * second block of the same size first.
 *
 * <p>Why: the sorted copy of every fixed-width column was a sixth of the bytes a wide-table ingest
 * allocated and as much memory as the insert block itself for each block being written; ClickHouse
 * permutes one column at a time while writing a part ({@code MergeTreeDataPartWriterWide}). Read
 * from one column's chunks at a time, the random reads of the permutation stay within that column
 * (the part writer writes column by column).
 *
 * <p>Read-only, like {@link GatheredStringColumn}: {@link #newEmpty} gives an ordinary column of
 * the chunks' class, {@link #permute} and {@link #materialize} make one of these rows; appending to
 * it is refused.
 */
public final class GatheredFixedColumn implements Column {

    private final List<Column> chunks;
    private final PhysicalType physical;
    private final int width;
    private final int[] chunkOf;
    private final int[] rowOf;
    private final int size;
    // the chunks' arrays of this column's class; the others stay null
    private final byte[][] bytes;
    private final short[][] shorts;
    private final int[][] ints;
    private final long[][] longs;
    private final float[][] floats;
    private final double[][] doubles;

    /**
     * Rows {@code rowOf[i]} of {@code chunks.get(chunkOf[i])}, {@code i < length}; every chunk of
     * the same class, one that {@link #supports}.
     *
     * @throws IllegalArgumentException if a chunk is not of a supported class or the chunks differ
     */
    public GatheredFixedColumn(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        Column shape = chunks.get(0);
        if (!supports(shape)) {
            throw new IllegalArgumentException(
                    "not a fixed-width number column: " + shape.getClass().getSimpleName());
        }
        this.chunks = new ArrayList<>(chunks);
        this.physical = shape.physicalType();
        this.chunkOf = chunkOf;
        this.rowOf = rowOf;
        this.size = length;
        int n = chunks.size();
        this.bytes = physical == PhysicalType.BYTE ? new byte[n][] : null;
        this.shorts = physical == PhysicalType.SHORT ? new short[n][] : null;
        this.ints = physical == PhysicalType.INT ? new int[n][] : null;
        this.longs = physical == PhysicalType.LONG ? new long[n][] : null;
        this.floats = physical == PhysicalType.FLOAT ? new float[n][] : null;
        this.doubles = physical == PhysicalType.DOUBLE ? new double[n][] : null;
        for (int k = 0; k < n; k++) {
            Column c = chunks.get(k);
            if (c.getClass() != shape.getClass()) {
                throw new IllegalArgumentException(
                        "chunks of different classes: "
                                + shape.getClass().getSimpleName()
                                + " and "
                                + c.getClass().getSimpleName());
            }
            switch (physical) {
                case BYTE -> bytes[k] = ((ByteColumn) c).data();
                case SHORT -> shorts[k] = ((ShortColumn) c).data();
                case INT -> ints[k] = ((IntColumn) c).data();
                case LONG -> longs[k] = ((LongColumn) c).data();
                case FLOAT -> floats[k] = ((FloatColumn) c).data();
                case DOUBLE -> doubles[k] = ((DoubleColumn) c).data();
                default -> throw new IllegalStateException("unexpected " + physical);
            }
        }
        this.width = physical.valueBytes();
    }

    /** Whether columns of {@code c}'s class can be gathered this way. */
    public static boolean supports(Column c) {
        return c instanceof ByteColumn
                || c instanceof ShortColumn
                || c instanceof IntColumn
                || c instanceof LongColumn
                || c instanceof FloatColumn
                || c instanceof DoubleColumn;
    }

    /** Bytes per value. */
    public int width() {
        return width;
    }

    /**
     * Writes rows {@code [from, to)} little-endian into {@code dst} from offset 0 ({@code (to -
     * from) * width()} bytes): the bytes a contiguous column of these rows serializes to.
     */
    public void encodeLittleEndian(int from, int to, byte[] dst) {
        int[] ck = chunkOf;
        int[] rw = rowOf;
        int p = 0;
        // one check for the loop: every value goes into dst[0, (to - from) * width)
        LittleEndian.checkRange(dst, 0, (to - from) * width);
        switch (physical) {
            case BYTE -> {
                byte[][] src = bytes;
                for (int r = from; r < to; r++, p++) {
                    dst[p] = src[ck[r]][rw[r]];
                }
            }
            case SHORT -> {
                short[][] src = shorts;
                for (int r = from; r < to; r++, p += 2) {
                    LittleEndian.putShortUnchecked(dst, p, src[ck[r]][rw[r]]);
                }
            }
            case INT -> {
                int[][] src = ints;
                for (int r = from; r < to; r++, p += 4) {
                    LittleEndian.putIntUnchecked(dst, p, src[ck[r]][rw[r]]);
                }
            }
            case LONG -> {
                long[][] src = longs;
                for (int r = from; r < to; r++, p += 8) {
                    LittleEndian.putLongUnchecked(dst, p, src[ck[r]][rw[r]]);
                }
            }
            case FLOAT -> {
                float[][] src = floats;
                for (int r = from; r < to; r++, p += 4) {
                    LittleEndian.putIntUnchecked(
                            dst, p, Float.floatToRawIntBits(src[ck[r]][rw[r]]));
                }
            }
            case DOUBLE -> {
                double[][] src = doubles;
                for (int r = from; r < to; r++, p += 8) {
                    LittleEndian.putLongUnchecked(
                            dst, p, Double.doubleToRawLongBits(src[ck[r]][rw[r]]));
                }
            }
            default -> throw new IllegalStateException("unexpected " + physical);
        }
    }

    /** The same rows as an ordinary (contiguous) column of the chunks' class. */
    public Column materialize() {
        return chunks.get(0).gather(chunks, chunkOf, rowOf, size);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return physical;
    }

    @Override
    public Column newEmpty(int capacity) {
        return chunks.get(0).newEmpty(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        throw new UnsupportedOperationException("a gathered column is read-only");
    }

    @Override
    public void appendDefault() {
        throw new UnsupportedOperationException("a gathered column is read-only");
    }

    @Override
    public Column permute(int[] perm, int length) {
        return materialize().permute(perm, length);
    }

    @Override
    public long byteSize() {
        return (long) size * width;
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException("a gathered column is read-only");
    }
}
