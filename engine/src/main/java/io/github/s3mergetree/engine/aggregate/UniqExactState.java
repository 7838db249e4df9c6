package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code uniqExact(x)}: the set of distinct keys, serialized as ClickHouse's {@code HashSet}: a
 * VarUInt count followed by the keys. A key is the value itself (little-endian) for integers, dates
 * and DateTime, and the 128-bit SipHash of the bytes for String. ClickHouse writes the keys in its
 * hash table's order and this engine in arrival order; both read either (a set), so merged states
 * finalize equally but may differ in bytes.
 */
final class UniqExactState extends StateFunction<Set<ByteBuffer>> {
    private final boolean string;
    private final int keyWidth;

    UniqExactState(DataType argument) {
        this.string = argument.kind() == TypeKind.STRING;
        this.keyWidth = string ? 16 : argument.fixedWidth();
    }

    @Override
    Set<ByteBuffer> create() {
        return new LinkedHashSet<>();
    }

    @Override
    Set<ByteBuffer> read(ByteSource in) {
        int n = ArgumentValues.checkSize(in.readVarUInt(), "uniqExact set size");
        Set<ByteBuffer> keys = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            byte[] k = new byte[keyWidth];
            in.readFully(k, 0, keyWidth);
            keys.add(ByteBuffer.wrap(k));
        }
        return keys;
    }

    @Override
    void write(Set<ByteBuffer> state, ByteSink out) {
        out.writeVarUInt(state.size());
        for (ByteBuffer k : state) {
            out.write(k.array(), 0, keyWidth);
        }
    }

    @Override
    void add(Set<ByteBuffer> state, byte[][] arguments) {
        byte[] v = arguments[0];
        if (string) {
            int prefix = 0;
            while ((v[prefix] & 0x80) != 0) {
                prefix++;
            }
            prefix++;
            v = SipHash128.hash(v, prefix, v.length - prefix);
        }
        state.add(ByteBuffer.wrap(v));
    }

    @Override
    void merge(Set<ByteBuffer> into, Set<ByteBuffer> from) {
        into.addAll(from);
    }
}
