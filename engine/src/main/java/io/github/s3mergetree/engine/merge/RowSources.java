package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.store.TableStore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.UUID;

/**
 * The order in which a vertical merge takes rows from its sources (ClickHouse's {@code
 * RowSourcePart} stream), kept in a temporary object of a scratch store (a local directory) as runs
 * of (source, length), so memory stays constant whatever the number of rows.
 *
 * <p>A run is the source as two bytes and the length as a LEB128 varint: where the sources
 * interleave, runs are a row or two long and the file is read again for every gathered column, so a
 * run takes three bytes and is decoded from a buffer, not through a stream call per field.
 */
final class RowSources implements AutoCloseable {
    private final TableStore scratch;
    private final String file;
    private final OutputStream out;
    private int runSource = -1;
    private long runLength;

    RowSources(TableStore scratch) throws IOException {
        this.scratch = scratch;
        this.file = "tmp_row_sources_" + UUID.randomUUID() + ".bin";
        this.out = new BufferedOutputStream(scratch.create(file, false), 1 << 16);
    }

    /** The next {@code rows} merged rows come from source {@code source}. */
    void add(int source, long rows) throws IOException {
        if (source == runSource) {
            runLength += rows;
            return;
        }
        flushRun();
        runSource = source;
        runLength = rows;
    }

    private void flushRun() throws IOException {
        if (runSource >= 0 && runLength > 0) {
            out.write(runSource >>> 8);
            out.write(runSource);
            long v = runLength;
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }
    }

    void finishWriting() throws IOException {
        flushRun();
        runSource = -1;
        out.close();
    }

    /** Reads the runs from the beginning (once per gathered column). */
    Reader reader() throws IOException {
        return new Reader(scratch.openStream(file), file);
    }

    /** A pass over the runs. */
    static final class Reader {
        private final InputStream in;
        private final String file;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int limit;
        private boolean eof;
        private int source;
        private long length;

        Reader(InputStream in, String file) {
            this.in = in;
            this.file = file;
        }

        boolean next() throws IOException {
            // a run is at most 2 + 10 bytes: refill when fewer are buffered
            if (limit - pos < 12 && !eof) {
                refill();
            }
            if (pos == limit) {
                in.close();
                return false;
            }
            if (limit - pos < 3) {
                throw truncated();
            }
            source = ((buf[pos] & 0xFF) << 8) | (buf[pos + 1] & 0xFF);
            pos += 2;
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos == limit || shift > 63) {
                    throw truncated();
                }
                byte b = buf[pos++];
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
            }
            length = v;
            return true;
        }

        private void refill() throws IOException {
            int rest = limit - pos;
            System.arraycopy(buf, pos, buf, 0, rest);
            pos = 0;
            limit = rest;
            while (limit < buf.length) {
                int n = in.read(buf, limit, buf.length - limit);
                if (n < 0) {
                    eof = true;
                    break;
                }
                limit += n;
            }
        }

        private IOException truncated() {
            return new IOException("row sources file " + file + " ends inside a run");
        }

        int source() {
            return source;
        }

        long length() {
            return length;
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
        scratch.delete(file);
    }
}
