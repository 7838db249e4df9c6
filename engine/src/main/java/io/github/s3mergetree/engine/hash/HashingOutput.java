package io.github.s3mergetree.engine.hash;

import java.util.Objects;

/**
 * Incremental hash with ClickHouse {@code HashingWriteBuffer} semantics (spec §3.1): the hash that
 * {@code checksums.txt} records for a file ({@code file_hash}) and for the decompressed content of
 * a compressed file ({@code uncompressed_hash}).
 *
 * <p>Why not plain CityHash128: ClickHouse hashes while writing, in chunks of {@value #CHUNK}
 * bytes. The state starts at {@code (0, 0)}; every complete chunk replaces it with {@code
 * CityHash128WithSeed(chunk, 2048, state)}; at the end a partial chunk of {@code r > 0} bytes gives
 * {@code CityHash128WithSeed(rest, r, state)}, otherwise the state itself is the result. So the
 * empty input hashes to {@code (0, 0)} and the result does not depend on how the input is split
 * across {@link #update} calls.
 *
 * <p>Not thread-safe; allocation-free after construction (one 2048-byte buffer). Complete chunks
 * passed to {@link #update} while the internal buffer is empty are hashed in place, without
 * copying.
 */
public final class HashingOutput {

    /**
     * The chunk size of ClickHouse's {@code HashingWriteBuffer} ({@code
     * DBMS_DEFAULT_HASHING_BLOCK_SIZE}).
     */
    public static final int CHUNK = 2048;

    private final byte[] chunk = new byte[CHUNK];
    private final long[] tmp = new long[2];
    private int chunkLen;
    private long stateLow;
    private long stateHigh;
    private long count;

    /** Creates a hasher in the initial state (no bytes, state {@code (0, 0)}). */
    public HashingOutput() {}

    /**
     * Hashes a whole array at once; same result as a fresh instance fed {@code b[off, off+len)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     */
    public static Hash128 hash(byte[] b, int off, int len) {
        HashingOutput h = new HashingOutput();
        h.update(b, off, len);
        return h.finish();
    }

    /**
     * Feeds {@code b[off, off+len)}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     */
    public void update(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        count += len;
        if (chunkLen > 0) {
            int n = Math.min(len, CHUNK - chunkLen);
            System.arraycopy(b, off, chunk, chunkLen, n);
            chunkLen += n;
            off += n;
            len -= n;
            if (chunkLen < CHUNK) {
                return;
            }
            hashChunk(chunk, 0);
            chunkLen = 0;
        }
        while (len >= CHUNK) {
            hashChunk(b, off);
            off += CHUNK;
            len -= CHUNK;
        }
        if (len > 0) {
            System.arraycopy(b, off, chunk, 0, len);
            chunkLen = len;
        }
    }

    /** Feeds one byte (the low 8 bits of {@code v}). */
    public void updateByte(int v) {
        count++;
        chunk[chunkLen++] = (byte) v;
        if (chunkLen == CHUNK) {
            hashChunk(chunk, 0);
            chunkLen = 0;
        }
    }

    /**
     * Returns the hash of all bytes fed so far. Does not change the state: more bytes may be fed
     * afterwards and {@code finish()} called again.
     */
    public Hash128 finish() {
        if (chunkLen == 0) {
            return new Hash128(stateLow, stateHigh);
        }
        CityHash102.cityHash128WithSeed(chunk, 0, chunkLen, stateLow, stateHigh, tmp);
        return new Hash128(tmp[0], tmp[1]);
    }

    /** Returns the number of bytes fed so far (the {@code size} that goes with the hash). */
    public long count() {
        return count;
    }

    /** Returns to the initial state, keeping the buffers for reuse. */
    public void reset() {
        chunkLen = 0;
        stateLow = 0;
        stateHigh = 0;
        count = 0;
    }

    private void hashChunk(byte[] b, int off) {
        CityHash102.cityHash128WithSeed(b, off, CHUNK, stateLow, stateHigh, tmp);
        stateLow = tmp[0];
        stateHigh = tmp[1];
    }
}
