package io.github.s3mergetree.source.s3.format;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whole-object gzip decompression by libdeflate (through a small JNI binding, {@code
 * src/main/native/s3mt_gzip.c}), about 2.4× the speed of the JDK's zlib inflater on text objects:
 * the largest share of a CSV.gz ingest's CPU after parsing. libdeflate decompresses a whole member
 * in one call, so an object is read into memory first; objects above {@link #MAX_COMPRESSED}
 * compressed bytes, and any stream libdeflate does not accept exactly (a corrupt or truncated
 * member, bytes after the last member, an empty object) are left to the JDK's {@code
 * GZIPInputStream}, which decides as before: same data, same errors, same lenience.
 *
 * <p>Where the binding or {@code libdeflate.so.0} is not there (another OS or architecture, no
 * libdeflate package), {@link #available()} is false and every object takes the JDK's path. Buffers
 * are direct (off the Java heap: the native call pins nothing, so collections are not held up while
 * an object decompresses) and pooled ({@link #take}, {@link #give}; sizes rounded as {@link
 * DownloadBuffers} rounds its arrays), so the objects of an ingest reuse the same memory instead of
 * touching new pages.
 */
final class NativeGzip {
    private static final Logger LOG = LoggerFactory.getLogger(NativeGzip.class);

    /** Objects with more compressed bytes stream through the JDK (memory: object plus output). */
    static final int MAX_COMPRESSED = 32 << 20;

    /** The largest output decompressed in one buffer; a larger stream goes to the JDK. */
    static final int MAX_DECOMPRESSED = 256 << 20;

    /** DEFLATE's largest expansion (a stream of 258-byte matches) bounds a trailer's claim. */
    private static final long MAX_RATIO = 1032;

    /** The pool keeps at most this many bytes of buffers not in use. */
    private static final long POOLED_BYTES = 256L << 20;

    private static final List<ByteBuffer> POOL = new ArrayList<>();
    private static final boolean AVAILABLE = load();

    private NativeGzip() {}

    /** Whether libdeflate's decompressor can be used in this JVM. */
    static boolean available() {
        return AVAILABLE;
    }

    /** What {@link #decompress} made: {@code length} bytes of {@code bytes}. */
    record Output(ByteBuffer bytes, int length) {}

    /**
     * The decompressed bytes of the gzip stream in {@code in}'s first {@code length} bytes (a
     * direct buffer from {@link #take}; one or more members, as gzip allows), in a buffer from
     * {@link #take} that the caller gives back; or null when libdeflate does not accept the stream
     * exactly as it is (the JDK then decides).
     */
    static Output decompress(ByteBuffer in, int length) {
        if (!AVAILABLE || length < 18) { // 10-byte header + empty deflate block + 8-byte trailer
            return null;
        }
        // ISIZE, the last member's size mod 2^32: the whole output for the usual single member
        long hint = in.getInt(length - 4) & 0xFFFFFFFFL; // the buffer is little-endian
        hint = Math.min(hint, MAX_RATIO * length);
        if (hint > MAX_DECOMPRESSED) {
            return null; // streamed by the JDK rather than held whole
        }
        // a trailer below the compressed size is not the whole output (several members): guess
        ByteBuffer out =
                take((int) (hint >= length ? hint + 64 : Math.min(MAX_DECOMPRESSED, 4L * length)));
        int pos = 0;
        int written = 0;
        while (pos < length) {
            long r = member(in, pos, length - pos, out, written, out.capacity() - written);
            if (r == -3 && out.capacity() < MAX_DECOMPRESSED) { // insufficient space: grow
                ByteBuffer bigger = take((int) Math.min(MAX_DECOMPRESSED, 2L * out.capacity()));
                bigger.put(0, out, 0, written);
                give(out);
                out = bigger;
                continue;
            }
            int used = (int) (r >>> 32);
            if (r < 0 || used == 0) {
                give(out);
                return null;
            }
            pos += used;
            written += (int) r;
        }
        return new Output(out, written);
    }

    /**
     * A pooled buffer of at least {@code size} bytes and at most twice that (the pool's smallest
     * that fits), else a new one rounded up as {@link DownloadBuffers#roundUp} does, so that
     * objects of about the same size reuse the same buffers.
     */
    static ByteBuffer take(int size) {
        synchronized (POOL) {
            int best = -1;
            for (int i = 0; i < POOL.size(); i++) {
                int len = POOL.get(i).capacity();
                // at most twice the size: an object's input does not take an output's buffer
                if (len >= size
                        && len / 2 <= size
                        && (best < 0 || len < POOL.get(best).capacity())) {
                    best = i;
                }
            }
            if (best >= 0) {
                return POOL.remove(best);
            }
        }
        // little-endian: ISIZE is read with getInt
        return ByteBuffer.allocateDirect(DownloadBuffers.roundUp(size))
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Returns a buffer to the pool, which keeps at most {@link #POOLED_BYTES} (dropping its
     * smallest buffers first).
     */
    static void give(ByteBuffer buffer) {
        if (buffer == null) {
            return;
        }
        synchronized (POOL) {
            POOL.add(buffer);
            long total = 0;
            for (ByteBuffer b : POOL) {
                total += b.capacity();
            }
            while (total > POOLED_BYTES) {
                int smallest = 0;
                for (int i = 1; i < POOL.size(); i++) {
                    if (POOL.get(i).capacity() < POOL.get(smallest).capacity()) {
                        smallest = i;
                    }
                }
                total -= POOL.remove(smallest).capacity();
            }
        }
    }

    /** Drops the pooled buffers (tests). */
    static void clearPool() {
        synchronized (POOL) {
            POOL.clear();
        }
    }

    private static boolean load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return false;
        }
        String resource = "native/linux-x86_64/libs3mtgzip.so";
        try (InputStream so = NativeGzip.class.getResourceAsStream(resource)) {
            if (so == null) {
                LOG.debug("No {} next to NativeGzip: gzip is decompressed by the JDK", resource);
                return false;
            }
            Path file = Files.createTempFile("s3mt-gzip-", ".so");
            try {
                Files.copy(so, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toString());
            } finally {
                Files.deleteIfExists(file); // the mapping stays valid once loaded
            }
            boolean ok = init();
            if (!ok) {
                LOG.info("libdeflate.so.0 not found: gzip objects are decompressed by the JDK");
            }
            return ok;
        } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
            LOG.info("The native gzip binding did not load ({}): gzip by the JDK", e.toString());
            return false;
        }
    }

    private static native boolean init();

    /**
     * libdeflate_gzip_decompress_ex of one member: (input consumed << 32 | bytes written), or
     * -(libdeflate's result) / -100 (no memory).
     */
    private static native long member(
            ByteBuffer in, int inOff, int inLen, ByteBuffer out, int outOff, int outLen);
}
