package io.github.s3mergetree.engine.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Views of byte arrays as little-endian numbers (ClickHouse's byte order on disk): {@code
 * LittleEndian.LONG.set(bytes, offset, value)} writes 8 bytes at any offset, compiled to one store
 * on x86. Shared by the serializers that encode columns, so each does not declare its own.
 */
public final class LittleEndian {
    /** {@code short} at a byte offset. */
    public static final VarHandle SHORT =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code int} at a byte offset. */
    public static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code long} at a byte offset. */
    public static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code float} (its IEEE 754 bits) at a byte offset. */
    public static final VarHandle FLOAT =
            MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code double} (its IEEE 754 bits) at a byte offset. */
    public static final VarHandle DOUBLE =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}
}
