package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.store.TableStore;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.UUID;

/**
 * The order in which a vertical merge takes rows from its sources (ClickHouse's {@code
 * RowSourcePart} stream), kept in a temporary object of a scratch store (a local directory) as runs
 * of (source, length), so memory stays constant whatever the number of rows.
 */
final class RowSources implements AutoCloseable {
    private final TableStore scratch;
    private final String file;
    private final DataOutputStream out;
    private int runSource = -1;
    private long runLength;

    RowSources(TableStore scratch) throws IOException {
        this.scratch = scratch;
        this.file = "tmp_row_sources_" + UUID.randomUUID() + ".bin";
        this.out =
                new DataOutputStream(
                        new BufferedOutputStream(scratch.create(file, false), 1 << 16));
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
            out.writeShort(runSource);
            out.writeLong(runLength);
        }
    }

    void finishWriting() throws IOException {
        flushRun();
        runSource = -1;
        out.close();
    }

    /** Reads the runs from the beginning (once per gathered column). */
    Reader reader() throws IOException {
        return new Reader(
                new DataInputStream(new BufferedInputStream(scratch.openStream(file), 1 << 16)));
    }

    /** A pass over the runs. */
    static final class Reader {
        private final DataInputStream in;
        private int source;
        private long length;

        Reader(DataInputStream in) {
            this.in = in;
        }

        boolean next() throws IOException {
            try {
                source = in.readUnsignedShort();
                length = in.readLong();
                return true;
            } catch (EOFException e) {
                in.close();
                return false;
            }
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
