package io.github.s3mergetree.engine.hash;

import io.github.s3mergetree.engine.io.LittleEndian;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * ClickHouse's 128-bit SipHash variant ({@code src/Common/SipHash.h}, spec §8.2): SipHash-2-4 with
 * key {@code (0, 0)}, finalisation {@code v2 ^= 0xff}, output {@code LE(v0^v1) || LE(v2^v3)}.
 *
 * <p>Why: ClickHouse derives non-integer partition ids (spec §8.1) and hashed long stream file
 * names ({@code sipHash128String}, spec §7.1) from it. It is <b>not</b> the reference SipHash-128
 * (SQL {@code sipHash128Reference}); it equals SQL {@code sipHash128} of a single String.
 *
 * <p>Incremental and streaming: bytes may be fed in any split. {@link #finish()} does not change
 * the state. Not thread-safe; one instance is cheap (no buffers).
 */
public final class SipHash128 {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private long v0;
    private long v1;
    private long v2;
    private long v3;

    /** Pending bytes of the current (incomplete) 8-byte word, little-endian, zero above. */
    private long current;

    /** Total number of bytes fed; {@code count & 7} bytes are pending in {@link #current}. */
    private long count;

    /** Creates a hasher in the initial state. */
    public SipHash128() {
        reset();
    }

    /** Returns the 16 output bytes of {@code b[off, off+len)} (see {@link #finish()}). */
    public static byte[] hash(byte[] b, int off, int len) {
        SipHash128 h = new SipHash128();
        h.update(b, off, len);
        return h.finish();
    }

    /**
     * ClickHouse {@code sipHash128String}: the hash of the UTF-8 bytes of {@code s} printed as a
     * big-endian 128-bit number, i.e. {@link #hexReversed} of the output bytes. Used for stream
     * file names longer than {@code max_file_name_length} (spec §7.1), e.g. 130 × {@code 'c'} →
     * {@code b91b5dba40e64ca59742427fc57582c0}.
     */
    public static String sipHash128String(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return hexReversed(hash(b, 0, b.length));
    }

    /**
     * Lowercase hex of {@code in} in array order: the partition-id form (spec §8.1) when applied to
     * {@link #finish()}'s output.
     */
    public static String hex(byte[] in) {
        char[] out = new char[in.length * 2];
        for (int i = 0; i < in.length; i++) {
            out[2 * i] = HEX[(in[i] >>> 4) & 0xf];
            out[2 * i + 1] = HEX[in[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * Lowercase hex of {@code in} from the last byte to the first: the {@code sipHash128String}
     * form (the 16 output bytes read as one little-endian 128-bit number, printed big-endian).
     */
    public static String hexReversed(byte[] in) {
        char[] out = new char[in.length * 2];
        for (int i = 0; i < in.length; i++) {
            int b = in[in.length - 1 - i];
            out[2 * i] = HEX[(b >>> 4) & 0xf];
            out[2 * i + 1] = HEX[b & 0xf];
        }
        return new String(out);
    }

    /** Feeds all of {@code b}. */
    public void update(byte[] b) {
        update(b, 0, b.length);
    }

    /**
     * Feeds {@code b[off, off+len)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     */
    public void update(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        int end = off + len;
        // Complete the pending word first.
        while ((count & 7) != 0 && off < end) {
            updateByte(b[off++]);
        }
        while (end - off >= 8) {
            compress(LittleEndian.getLong(b, off));
            off += 8;
            count += 8;
        }
        while (off < end) {
            updateByte(b[off++]);
        }
    }

    /** Feeds one byte (the low 8 bits of {@code v}). */
    public void updateByte(int v) {
        int shift = (int) (count & 7) << 3;
        current |= (v & 0xffL) << shift;
        count++;
        if ((count & 7) == 0) {
            compress(current);
            current = 0;
        }
    }

    /** Feeds {@code v} as 8 little-endian bytes (a ClickHouse UInt64/Int64 value). */
    public void updateLong(long v) {
        if ((count & 7) == 0) {
            compress(v);
            count += 8;
        } else {
            for (int i = 0; i < 8; i++) {
                updateByte((int) (v >>> (i * 8)));
            }
        }
    }

    /**
     * Returns the 16 output bytes {@code LE(v0^v1) || LE(v2^v3)} of all bytes fed so far. The state
     * is not changed.
     */
    public byte[] finish() {
        long s0 = v0;
        long s1 = v1;
        long s2 = v2;
        long s3 = v3;
        compress(current | ((count & 0xff) << 56));
        v2 ^= 0xff;
        sipRound();
        sipRound();
        sipRound();
        sipRound();
        byte[] out = new byte[16];
        LittleEndian.putLong(out, 0, v0 ^ v1);
        LittleEndian.putLong(out, 8, v2 ^ v3);
        v0 = s0;
        v1 = s1;
        v2 = s2;
        v3 = s3;
        return out;
    }

    /**
     * ClickHouse's 64-bit output of the same state machine ({@code SipHash::get64}, SQL {@code
     * sipHash64}): {@code v0^v1^v2^v3} after the same finalisation. The state is not changed.
     */
    public long finish64() {
        long s0 = v0;
        long s1 = v1;
        long s2 = v2;
        long s3 = v3;
        compress(current | ((count & 0xff) << 56));
        v2 ^= 0xff;
        sipRound();
        sipRound();
        sipRound();
        sipRound();
        long out = v0 ^ v1 ^ v2 ^ v3;
        v0 = s0;
        v1 = s1;
        v2 = s2;
        v3 = s3;
        return out;
    }

    /** SQL {@code sipHash64} of {@code b[off, off+len)} (see {@link #finish64()}). */
    public static long sipHash64(byte[] b, int off, int len) {
        SipHash128 h = new SipHash128();
        h.update(b, off, len);
        return h.finish64();
    }

    /** Returns the number of bytes fed so far. */
    public long count() {
        return count;
    }

    /** Returns to the initial state. */
    public void reset() {
        v0 = 0x736f6d6570736575L;
        v1 = 0x646f72616e646f6dL;
        v2 = 0x6c7967656e657261L;
        v3 = 0x7465646279746573L;
        current = 0;
        count = 0;
    }

    /** Absorbs one full 8-byte word: {@code v3 ^= m}, two SipRounds, {@code v0 ^= m}. */
    private void compress(long m) {
        v3 ^= m;
        sipRound();
        sipRound();
        v0 ^= m;
    }

    private void sipRound() {
        v0 += v1;
        v1 = Long.rotateLeft(v1, 13);
        v1 ^= v0;
        v0 = Long.rotateLeft(v0, 32);
        v2 += v3;
        v3 = Long.rotateLeft(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = Long.rotateLeft(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = Long.rotateLeft(v1, 17);
        v1 ^= v2;
        v2 = Long.rotateLeft(v2, 32);
    }
}
