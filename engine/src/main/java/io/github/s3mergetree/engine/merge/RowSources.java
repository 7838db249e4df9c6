package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * The order in which a vertical merge takes rows from its sources (ClickHouse's {@code
 * RowSourcePart} stream), kept in a temporary object of a scratch store (a local directory) as runs
 * of (source, length), so memory stays constant whatever the number of rows.
 *
 * <p>A run is the source as two bytes and the length as a VarUInt: where the sources interleave,
 * runs are a row or two long and the file is read again for every gathered column, so a run takes
 * three bytes and is encoded into and decoded from 64-KiB buffers, not through a stream call per
 * field.
 */
final class RowSources implements AutoCloseable {
    private static final int BUFFER = 1 << 16;

    /** A run's largest encoding: two bytes of source and a VarUInt of at most ten. */
    private static final int MAX_RUN_BYTES = 12;

    private final TableStore scratch;
    private final String file;
    private final OutputStream out;
    private final ByteArraySink pending = new ByteArraySink(BUFFER + MAX_RUN_BYTES);
    private int runSource = -1;
    private long runLength;

    RowSources(TableStore scratch) throws IOException {
        this.scratch = scratch;
        this.file = "tmp_row_sources_" + UUID.randomUUID() + ".bin";
        this.out = scratch.create(file, false);
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
            pending.writeShortLE(runSource);
            pending.writeVarUInt(runLength);
            if (pending.size() >= BUFFER) {
                writePending();
            }
        }
    }

    private void writePending() throws IOException {
        out.write(pending.buffer(), 0, pending.size());
        pending.reset();
    }

    void finishWriting() throws IOException {
        flushRun();
        runSource = -1;
        writePending();
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
        private final byte[] buf = new byte[BUFFER];
        private ByteArraySource runs;
        private int limit;
        private boolean eof;
        private int source;
        private long length;

        Reader(InputStream in, String file) {
            this.in = in;
            this.file = file;
        }

        boolean next() throws IOException {
            // refilled while fewer bytes than a whole run are buffered: no run is split
            if (runs == null || (limit - runs.position() < MAX_RUN_BYTES && !eof)) {
                refill();
            }
            if (runs.eof()) {
                in.close();
                return false;
            }
            try {
                source = runs.readShortLE();
                length = runs.readVarUInt();
            } catch (UncheckedIOException e) {
                throw new IOException("row sources file " + file + " ends inside a run", e);
            }
            return true;
        }

        private void refill() throws IOException {
            int rest = runs == null ? 0 : limit - runs.position();
            System.arraycopy(buf, limit - rest, buf, 0, rest);
            limit = rest;
            while (limit < buf.length) {
                int n = in.read(buf, limit, buf.length - limit);
                if (n < 0) {
                    eof = true;
                    break;
                }
                limit += n;
            }
            runs = new ByteArraySource(buf, 0, limit, file);
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
