package io.github.s3mergetree.source.s3.format.parquet;

import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.ObjectBytes;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over an object in S3 that serves reads from byte ranges fetched in
 * advance (the footer tail; the column chunks of the next row group, downloaded by parallel ranged
 * GETs) and fetches anything else with one ranged GET. Why: parquet-hadoop reads a row group as
 * many seeks and reads; each becoming a GET would be slow. Row groups are read as vectored reads
 * that get views of the cached chunk bytes, so the bytes are not copied again.
 *
 * <p>The chunk bytes come from the context's pool of download arrays: ranges dropped after a row
 * group was read stay referenced ({@link #dropUnpinned}) until the reader has decoded that row
 * group ({@link #releaseDropped}), since its pages are views of them; {@link #releaseAll} at the
 * reader's close gives back the rest.
 */
final class CachedRangeInputFile implements InputFile {
    private static final int MIN_FETCH = 64 * 1024;

    private final FormatContext ctx;
    private final S3ObjectSplit split;
    private final List<Range> ranges = new ArrayList<>();
    private final List<Range> dropped = new ArrayList<>();

    private record Range(long start, ObjectBytes bytes, boolean pinned) {
        long end() {
            return start + bytes.length();
        }
    }

    CachedRangeInputFile(FormatContext ctx, S3ObjectSplit split) {
        this.ctx = ctx;
        this.split = split;
    }

    /** Keeps {@code bytes} (starting at {@code start}) until {@link #dropUnpinned()}. */
    void cache(long start, ObjectBytes bytes, boolean pinned) {
        ranges.add(new Range(start, bytes, pinned));
    }

    /** Fetches {@code [start, end)} into the cache. */
    void fetch(long start, long end) throws IOException {
        for (Range r : ranges) {
            if (start >= r.start() && end <= r.end()) {
                return; // already here (small objects: the footer tail holds everything)
            }
        }
        cache(start, ctx.readPooled(split, start, end), false);
    }

    /**
     * Stops serving the unpinned ranges (a row group's chunks, once parquet has read them into
     * pages); their arrays stay out of the pool until {@link #releaseDropped}.
     */
    void dropUnpinned() {
        for (Range r : ranges) {
            if (!r.pinned()) {
                dropped.add(r);
            }
        }
        ranges.removeIf(r -> !r.pinned());
    }

    /** Gives the dropped ranges' arrays back: nothing may read the pages made from them. */
    void releaseDropped() {
        for (Range r : dropped) {
            ctx.release(r.bytes());
        }
        dropped.clear();
    }

    /** Gives every array back (the reader's close): nothing may read this file afterwards. */
    void releaseAll() {
        releaseDropped();
        for (Range r : ranges) {
            ctx.release(r.bytes());
        }
        ranges.clear();
    }

    @Override
    public long getLength() {
        return split.objectSize();
    }

    private Range find(long pos) {
        for (Range r : ranges) {
            if (pos >= r.start() && pos < r.end()) {
                return r;
            }
        }
        return null;
    }

    @Override
    public SeekableInputStream newStream() {
        return new SeekableInputStream() {
            private long pos;

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public void seek(long newPos) {
                pos = newPos;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos >= split.objectSize()) {
                    return -1;
                }
                if (len == 0) {
                    return 0;
                }
                Range r = find(pos);
                if (r == null) {
                    long end = Math.min(split.objectSize(), pos + Math.max(len, MIN_FETCH));
                    fetch(pos, end);
                    r = find(pos);
                }
                int n = (int) Math.min(len, r.end() - pos);
                System.arraycopy(r.bytes().array(), (int) (pos - r.start()), b, off, n);
                pos += n;
                return n;
            }

            @Override
            public void readFully(byte[] bytes) throws IOException {
                readFully(bytes, 0, bytes.length);
            }

            @Override
            public void readFully(byte[] bytes, int start, int len) throws IOException {
                int done = 0;
                while (done < len) {
                    int n = read(bytes, start + done, len - done);
                    if (n < 0) {
                        throw new EOFException(
                                ctx.describe(split.key()) + ": unexpected end at " + pos);
                    }
                    done += n;
                }
            }

            @Override
            public int read(ByteBuffer buf) throws IOException {
                int len = buf.remaining();
                if (buf.hasArray()) {
                    int n = read(buf.array(), buf.arrayOffset() + buf.position(), len);
                    if (n > 0) {
                        buf.position(buf.position() + n);
                    }
                    return n;
                }
                byte[] tmp = new byte[len];
                int n = read(tmp, 0, len);
                if (n > 0) {
                    buf.put(tmp, 0, n);
                }
                return n;
            }

            @Override
            public void readFully(ByteBuffer buf) throws IOException {
                if (buf.hasArray()) {
                    readFully(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
                    buf.position(buf.limit());
                    return;
                }
                byte[] tmp = new byte[buf.remaining()];
                readFully(tmp, 0, tmp.length);
                buf.put(tmp);
            }

            /** Vectored reads are served from the cache without a copy (see below). */
            @Override
            public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
                return true;
            }

            /**
             * A row group's column chunks: each range the cache holds (the prefetched chunks) is
             * handed out as a view of the cached bytes, no copy (parquet only reads them); any
             * other range is read into a new array.
             */
            @Override
            public void readVectored(
                    List<ParquetFileRange> fileRanges, ByteBufferAllocator allocator)
                    throws IOException {
                for (ParquetFileRange fr : fileRanges) {
                    long start = fr.getOffset();
                    int len = fr.getLength();
                    Range r = find(start);
                    ByteBuffer data;
                    if (r != null && start + len <= r.end()) {
                        data =
                                ByteBuffer.wrap(r.bytes().array(), (int) (start - r.start()), len)
                                        .slice();
                    } else {
                        byte[] b = new byte[len];
                        seek(start);
                        readFully(b, 0, len);
                        data = ByteBuffer.wrap(b);
                    }
                    fr.setDataReadFuture(CompletableFuture.completedFuture(data));
                }
            }
        };
    }
}
