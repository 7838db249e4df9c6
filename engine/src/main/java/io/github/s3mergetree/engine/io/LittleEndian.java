package io.github.s3mergetree.engine.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.nio.ByteOrder;
import java.util.Locale;

/**
 * Little-endian numbers (ClickHouse's byte order on disk) read from and written into byte arrays at
 * any offset: {@code LittleEndian.putLong(bytes, offset, value)} writes 8 bytes, compiled to one
 * store on x86. Shared by the serializers, hashes and compressed streams, so each does not declare
 * its own.
 *
 * <p>Why not {@link VarHandle}s (what this class was until 2026-12-07): a byte-array view {@code
 * VarHandle} compiles to one load or store in C2's code, but C1's code (what runs for the first
 * seconds of a process, and longer where C2's thresholds are raised, as the command's JVM options
 * do) calls through the handle's guards and index checks on every access: a cold profile of a
 * 2.4M-row wide ingest spent ~0.9 CPU-s in those frames under {@code
 * GatheredFixedColumn.encodeLittleEndian} and ~0.4 under CityHash. {@code sun.misc.Unsafe}'s
 * accesses are intrinsics of both compilers. It is used where the platform allows unaligned access
 * (x86-64, AArch64) and the JDK does not warn about it (before JDK 24, JEP 498); elsewhere the
 * {@code VarHandle}s are used, with the same results.
 *
 * <p>Two kinds of access: the plain methods check that the value lies inside the array and throw
 * {@link IndexOutOfBoundsException} otherwise; the {@code *Unchecked} methods are for a loop that
 * has checked its whole range once ({@link #checkRange}) and must not be called otherwise.
 */
public final class LittleEndian {

    private static final VarHandle SHORT =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code sun.misc.Unsafe}, or null where the {@code VarHandle}s are used. */
    private static final sun.misc.Unsafe UNSAFE = unsafeIfUsable();

    /** Whether {@link #UNSAFE} is used (a constant: each compiler keeps one branch). */
    static final boolean DIRECT = UNSAFE != null;

    private static final long BASE = DIRECT ? UNSAFE.arrayBaseOffset(byte[].class) : 0;

    private LittleEndian() {}

    private static sun.misc.Unsafe unsafeIfUsable() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        boolean unaligned = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64");
        if (!unaligned
                || ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN
                || Runtime.version().feature() >= 24
                || Boolean.getBoolean("s3mergetree.littleEndian.varHandles")) {
            return null;
        }
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
            return u.arrayIndexScale(byte[].class) == 1 ? u : null;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * Checks that {@code [off, off + length)} lies inside {@code b}, before a loop of {@code
     * *Unchecked} accesses inside that range.
     *
     * @throws IndexOutOfBoundsException if it does not
     */
    public static void checkRange(byte[] b, int off, int length) {
        if ((off | length) < 0 || length > b.length - off) {
            throw outOfBounds(b, off, length);
        }
    }

    private static IndexOutOfBoundsException outOfBounds(byte[] b, int off, int length) {
        return new IndexOutOfBoundsException(
                "range ["
                        + off
                        + ", "
                        + off
                        + " + "
                        + length
                        + ") out of bounds for length "
                        + b.length);
    }

    /** The {@code short} at {@code b[off, off + 2)}. */
    public static short getShort(byte[] b, int off) {
        checkRange(b, off, 2);
        return getShortUnchecked(b, off);
    }

    /** The {@code int} at {@code b[off, off + 4)}. */
    public static int getInt(byte[] b, int off) {
        checkRange(b, off, 4);
        return getIntUnchecked(b, off);
    }

    /** The {@code long} at {@code b[off, off + 8)}. */
    public static long getLong(byte[] b, int off) {
        checkRange(b, off, 8);
        return getLongUnchecked(b, off);
    }

    /** Writes {@code v} into {@code b[off, off + 2)}. */
    public static void putShort(byte[] b, int off, short v) {
        checkRange(b, off, 2);
        putShortUnchecked(b, off, v);
    }

    /** Writes {@code v} into {@code b[off, off + 4)}. */
    public static void putInt(byte[] b, int off, int v) {
        checkRange(b, off, 4);
        putIntUnchecked(b, off, v);
    }

    /** Writes {@code v} into {@code b[off, off + 8)}. */
    public static void putLong(byte[] b, int off, long v) {
        checkRange(b, off, 8);
        putLongUnchecked(b, off, v);
    }

    /** {@link #getShort} inside a range the caller has checked ({@link #checkRange}). */
    public static short getShortUnchecked(byte[] b, int off) {
        return DIRECT ? UNSAFE.getShort(b, BASE + off) : (short) SHORT.get(b, off);
    }

    /** {@link #getInt} inside a range the caller has checked ({@link #checkRange}). */
    public static int getIntUnchecked(byte[] b, int off) {
        return DIRECT ? UNSAFE.getInt(b, BASE + off) : (int) INT.get(b, off);
    }

    /** {@link #getLong} inside a range the caller has checked ({@link #checkRange}). */
    public static long getLongUnchecked(byte[] b, int off) {
        return DIRECT ? UNSAFE.getLong(b, BASE + off) : (long) LONG.get(b, off);
    }

    /** {@link #putShort} inside a range the caller has checked ({@link #checkRange}). */
    public static void putShortUnchecked(byte[] b, int off, short v) {
        if (DIRECT) {
            UNSAFE.putShort(b, BASE + off, v);
        } else {
            SHORT.set(b, off, v);
        }
    }

    /** {@link #putInt} inside a range the caller has checked ({@link #checkRange}). */
    public static void putIntUnchecked(byte[] b, int off, int v) {
        if (DIRECT) {
            UNSAFE.putInt(b, BASE + off, v);
        } else {
            INT.set(b, off, v);
        }
    }

    /** {@link #putLong} inside a range the caller has checked ({@link #checkRange}). */
    public static void putLongUnchecked(byte[] b, int off, long v) {
        if (DIRECT) {
            UNSAFE.putLong(b, BASE + off, v);
        } else {
            LONG.set(b, off, v);
        }
    }
}
