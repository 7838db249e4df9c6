package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.GatheredFixedColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.io.LittleEndian;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.List;

/**
 * Numbers, dates, UUIDs, FixedString: {@code width} little-endian bytes per value in one stream.
 */
final class FixedWidthSerialization extends BulkSerialization {
    private static final int CHUNK_BYTES = 64 * 1024;

    /**
     * The encoding scratch of each thread: one serialization exists per column of every part
     * written, and a scratch of their own was 8 % of the bytes a wide-table ingest allocated. The
     * scratch is written to the sink before {@link #serialize} returns, so the thread's next use
     * finds it free.
     */
    private static final ThreadLocal<byte[]> SCRATCH =
            ThreadLocal.withInitial(() -> new byte[CHUNK_BYTES]);

    private final PhysicalType physical;
    private final int width;
    private final String stream;

    FixedWidthSerialization(DataType type, String stream) {
        this.physical = type.physicalType();
        this.width = type.fixedWidth();
        this.stream = stream;
        if (width <= 0) {
            throw new IllegalArgumentException("not a fixed-width type: " + type.name());
        }
        // the loops of encode and decode check their range with this width once, then move values
        // of the physical type's own size: the two must agree
        int physicalWidth = physical.valueBytes();
        if (physicalWidth != 0 && physicalWidth != width) {
            throw new IllegalArgumentException(
                    type.name()
                            + ": "
                            + width
                            + " bytes per value, but "
                            + physical
                            + " holds "
                            + physicalWidth);
        }
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(stream);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        ByteSink out = sinks.sink(stream);
        if (column instanceof GatheredFixedColumn gathered) {
            // a sorted column read straight from the insert block's chunks (encode)
            if (gathered.width() != width) {
                throw new IllegalStateException(
                        "a gathered column of "
                                + gathered.width()
                                + "-byte values for a "
                                + width
                                + "-byte type (stream "
                                + stream
                                + ")");
            }
        } else if (physical == PhysicalType.BYTE) {
            out.write(((ByteColumn) column).data(), from, to - from);
            return;
        } else if (physical == PhysicalType.FIXED_BYTES) {
            out.write(((FixedBytesColumn) column).data(), from * width, (to - from) * width);
            return;
        }
        byte[] scratch = SCRATCH.get();
        int perChunk = CHUNK_BYTES / width;
        for (int start = from; start < to; start += perChunk) {
            int end = Math.min(to, start + perChunk);
            encode(column, start, end, scratch);
            out.write(scratch, 0, (end - start) * width);
        }
    }

    private void encode(Column column, int from, int to, byte[] dst) {
        if (column instanceof GatheredFixedColumn gathered) {
            gathered.encodeLittleEndian(from, to, dst);
            return;
        }
        int p = 0;
        // one check for the loop: every value goes into dst[0, (to - from) * width)
        LittleEndian.checkRange(dst, 0, (to - from) * width);
        switch (physical) {
            case SHORT -> {
                short[] d = ((ShortColumn) column).data();
                for (int i = from; i < to; i++, p += 2) {
                    LittleEndian.putShortUnchecked(dst, p, d[i]);
                }
            }
            case INT -> {
                int[] d = ((IntColumn) column).data();
                for (int i = from; i < to; i++, p += 4) {
                    LittleEndian.putIntUnchecked(dst, p, d[i]);
                }
            }
            case LONG -> {
                long[] d = ((LongColumn) column).data();
                for (int i = from; i < to; i++, p += 8) {
                    LittleEndian.putLongUnchecked(dst, p, d[i]);
                }
            }
            case FLOAT -> {
                float[] d = ((FloatColumn) column).data();
                for (int i = from; i < to; i++, p += 4) {
                    LittleEndian.putIntUnchecked(dst, p, Float.floatToRawIntBits(d[i]));
                }
            }
            case DOUBLE -> {
                double[] d = ((DoubleColumn) column).data();
                for (int i = from; i < to; i++, p += 8) {
                    LittleEndian.putLongUnchecked(dst, p, Double.doubleToRawLongBits(d[i]));
                }
            }
            default -> throw new IllegalStateException("unexpected " + physical);
        }
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        ByteSource in = sources.source(stream);
        switch (physical) {
            case BYTE -> {
                ByteColumn c = (ByteColumn) column;
                byte[] d = c.reserve(rows);
                in.readFully(d, c.size(), rows);
                c.setSize(c.size() + rows);
            }
            case FIXED_BYTES -> {
                FixedBytesColumn c = (FixedBytesColumn) column;
                byte[] tmp = new byte[rows * width];
                in.readFully(tmp, 0, tmp.length);
                for (int i = 0; i < rows; i++) {
                    c.add(tmp, i * width);
                }
            }
            default -> {
                byte[] tmp = new byte[rows * width];
                in.readFully(tmp, 0, tmp.length);
                decode(column, rows, tmp);
            }
        }
    }

    private void decode(Column column, int rows, byte[] src) {
        switch (physical) {
            case SHORT -> {
                ShortColumn c = (ShortColumn) column;
                short[] d = c.reserve(rows);
                int base = c.size();
                for (int i = 0; i < rows; i++) {
                    d[base + i] = LittleEndian.getShortUnchecked(src, i * 2);
                }
                c.setSize(base + rows);
            }
            case INT -> {
                IntColumn c = (IntColumn) column;
                int[] d = c.reserve(rows);
                int base = c.size();
                for (int i = 0; i < rows; i++) {
                    d[base + i] = LittleEndian.getIntUnchecked(src, i * 4);
                }
                c.setSize(base + rows);
            }
            case LONG -> {
                LongColumn c = (LongColumn) column;
                long[] d = c.reserve(rows);
                int base = c.size();
                for (int i = 0; i < rows; i++) {
                    d[base + i] = LittleEndian.getLongUnchecked(src, i * 8);
                }
                c.setSize(base + rows);
            }
            case FLOAT -> {
                FloatColumn c = (FloatColumn) column;
                float[] d = c.reserve(rows);
                int base = c.size();
                for (int i = 0; i < rows; i++) {
                    d[base + i] = Float.intBitsToFloat(LittleEndian.getIntUnchecked(src, i * 4));
                }
                c.setSize(base + rows);
            }
            case DOUBLE -> {
                DoubleColumn c = (DoubleColumn) column;
                double[] d = c.reserve(rows);
                int base = c.size();
                for (int i = 0; i < rows; i++) {
                    d[base + i] =
                            Double.longBitsToDouble(LittleEndian.getLongUnchecked(src, i * 8));
                }
                c.setSize(base + rows);
            }
            default -> throw new IllegalStateException("unexpected " + physical);
        }
    }
}
