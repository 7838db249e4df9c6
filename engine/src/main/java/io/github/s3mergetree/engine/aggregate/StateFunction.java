package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;

/**
 * The state of one aggregate function over its argument types, in ClickHouse's serialization (the
 * values of an {@code AggregateFunction(f, T…)} column): how a state is read from a stream (where
 * it ends: states follow each other without length prefixes), written, created from one row's
 * argument values ({@code fState(x)} over that row), and merged ({@code fMerge}).
 *
 * <p>One subclass per function family; {@link StateFunctions#of} picks it. Callers outside this
 * package work with serialized states only ({@code byte[]}), which is what columns hold.
 *
 * @param <S> the mutable in-memory state
 */
public abstract class StateFunction<S> {

    /** A new empty state (no rows aggregated). */
    abstract S create();

    /** Reads one state from {@code in}, consuming exactly its bytes. */
    abstract S read(ByteSource in);

    /** Writes {@code state} as ClickHouse serializes it. */
    abstract void write(S state, ByteSink out);

    /**
     * Aggregates one row into {@code state}: {@code arguments[i]} is the row's i-th argument value
     * in ClickHouse's single-value binary form ({@code serializeBinary}) of the declared argument
     * type (a Nullable argument starts with its NULL flag byte).
     */
    abstract void add(S state, byte[][] arguments);

    /** Merges {@code from} into {@code into} ({@code into} then covers both). */
    abstract void merge(S into, S from);

    /** The serialized empty state: the column default. */
    public final byte[] emptyState() {
        return serialize(create());
    }

    /** The serialized state of one row with these argument values ({@code fState} of the row). */
    public final byte[] stateOfRow(byte[][] arguments) {
        S s = create();
        add(s, arguments);
        return serialize(s);
    }

    /**
     * Reads one serialized state from {@code in} and returns its bytes exactly as they were (the
     * state's own format decides where it ends).
     */
    public final byte[] readState(ByteSource in) {
        RecordingSource rec = new RecordingSource(in);
        read(rec);
        return rec.recorded();
    }

    /**
     * Merges serialized states, in order, into one serialized state ({@code fMerge} over them, as
     * AggregatingMergeTree's merges combine the rows of one sorting key).
     *
     * @param what names the states for error messages (column, part)
     */
    public final byte[] mergeStates(Iterable<byte[]> states, String what) {
        S acc = create();
        for (byte[] b : states) {
            ByteArraySource in = new ByteArraySource(b, what);
            merge(acc, read(in));
            if (!in.eof()) {
                throw new IllegalArgumentException(
                        "aggregate state of " + what + " has trailing bytes after its state");
            }
        }
        return serialize(acc);
    }

    private byte[] serialize(S state) {
        ByteArraySink out = new ByteArraySink(16);
        write(state, out);
        return out.toByteArray();
    }

    /** A source that keeps a copy of every byte read through it. */
    private static final class RecordingSource implements ByteSource {
        private final ByteSource in;
        private final ByteArraySink copy = new ByteArraySink(16);

        RecordingSource(ByteSource in) {
            this.in = in;
        }

        @Override
        public int readByte() {
            int b = in.readByte();
            copy.writeByte(b);
            return b;
        }

        @Override
        public void readFully(byte[] b, int off, int len) {
            in.readFully(b, off, len);
            copy.write(b, off, len);
        }

        @Override
        public boolean eof() {
            return in.eof();
        }

        byte[] recorded() {
            return copy.toByteArray();
        }
    }
}
