package io.github.s3mergetree.source.s3.format.compression;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.github.s3mergetree.source.s3.format.DownloadBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 *
 * <p>Direct memory is limited by the JVM ({@code -XX:MaxDirectMemorySize}; a Flink TaskManager sets
 * it to its framework and task off-heap plus network memory, so the network buffers already hold
 * most of it). A buffer is taken only while a quarter of that limit stays free beside it; otherwise
 * (and if the JVM refuses it all the same) the object is decompressed by the JDK, with a warning
 * once per JVM that names the setting that makes room ({@code
 * taskmanager.memory.task.off-heap.size}). The pool keeps at most a quarter of the limit.
 */
final class NativeGzip {
    private static final Logger LOG = LoggerFactory.getLogger(NativeGzip.class);

    /** Objects with more compressed bytes stream through the JDK (memory: object plus output). */
    static final int MAX_COMPRESSED = 32 << 20;

    /** The largest output decompressed in one buffer; a larger stream goes to the JDK. */
    static final int MAX_DECOMPRESSED = 256 << 20;

    /** DEFLATE's largest expansion (a stream of 258-byte matches) bounds a trailer's claim. */
    private static final long MAX_RATIO = 1032;

    /** The JVM's direct memory limit ({@code -XX:MaxDirectMemorySize}, by default the heap's). */
    private static final long DIRECT_LIMIT = directMemoryLimit();

    /** The pool keeps at most this many bytes of buffers not in use. */
    private static final long POOLED_BYTES = Math.min(256L << 20, DIRECT_LIMIT / 4);

    private static final BufferPoolMXBean DIRECT_POOL = directBufferPool();
    private static final Object UNSAFE = unsafe();
    private static final Method INVOKE_CLEANER = invokeCleaner(UNSAFE);
    private static final AtomicBoolean TOLD_ABOUT_DIRECT_MEMORY = new AtomicBoolean();
    private static final AtomicLong REFUSALS = new AtomicLong();

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
        if (out == null) {
            return null; // no direct memory to spare: the JDK streams it
        }
        int pos = 0;
        int written = 0;
        while (pos < length) {
            long r = member(in, pos, length - pos, out, written, out.capacity() - written);
            if (r == -3 && out.capacity() < MAX_DECOMPRESSED) { // insufficient space: grow
                ByteBuffer bigger = take((int) Math.min(MAX_DECOMPRESSED, 2L * out.capacity()));
                if (bigger == null) {
                    give(out);
                    return null;
                }
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
     * objects of about the same size reuse the same buffers; or null when the JVM's direct memory
     * cannot spare a new one (see the class comment).
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
        int capacity = DownloadBuffers.roundUp(size);
        long used = directMemoryUsed();
        if (!leavesAQuarterFree(capacity, used, DIRECT_LIMIT)) {
            refused(capacity, used);
            return null;
        }
        try {
            // little-endian: ISIZE is read with getInt
            return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        } catch (OutOfMemoryError e) { // refused before anything was allocated
            refused(capacity, directMemoryUsed());
            return null;
        }
    }

    /**
     * Whether a new buffer of {@code size} bytes, beside {@code used} bytes of direct memory,
     * leaves a quarter of the JVM's {@code limit} free (for its network buffers, Netty and the
     * like).
     */
    static boolean leavesAQuarterFree(long size, long used, long limit) {
        return used + size <= limit - limit / 4;
    }

    /** Bytes of direct buffers allocated in this JVM (0 where the JVM does not say). */
    static long directMemoryUsed() {
        return DIRECT_POOL == null ? 0 : DIRECT_POOL.getMemoryUsed();
    }

    /** How many buffers the JVM's direct memory could not spare (tests). */
    static long refusals() {
        return REFUSALS.get();
    }

    private static void refused(long size, long used) {
        REFUSALS.incrementAndGet();
        if (TOLD_ABOUT_DIRECT_MEMORY.compareAndSet(false, true)) {
            LOG.warn(
                    "A gzip object is decompressed by the JDK instead of libdeflate (slower): the"
                            + " JVM's direct memory (limit {} MiB, {} MiB in use) cannot spare a"
                            + " {}-MiB buffer and a quarter of the limit. On a Flink TaskManager"
                            + " taskmanager.memory.task.off-heap.size adds to the limit (e.g."
                            + " 512m). Said once per JVM.",
                    DIRECT_LIMIT >> 20,
                    used >> 20,
                    Math.max(1, size >> 20));
        }
    }

    /**
     * Returns a buffer to the pool, which keeps at most {@link #POOLED_BYTES} (dropping its
     * smallest buffers first). A dropped buffer's memory is freed at once, not when a collection
     * finds it: the direct memory in use is then what {@link #take} measures it to be (a pooled
     * buffer lives long, in the old generation, and its memory stayed reserved until a full or
     * mixed collection). The caller must not use a buffer after giving it back.
     */
    static void give(ByteBuffer buffer) {
        if (buffer == null) {
            return;
        }
        List<ByteBuffer> dropped = new ArrayList<>();
        synchronized (POOL) {
            for (ByteBuffer b : POOL) {
                if (b == buffer) { // two takers would share it, and it could be freed under one
                    throw new IllegalStateException("a buffer given back twice");
                }
            }
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
                ByteBuffer b = POOL.remove(smallest);
                total -= b.capacity();
                dropped.add(b);
            }
        }
        dropped.forEach(NativeGzip::free);
    }

    /** Drops the pooled buffers, freeing their memory (tests). */
    static void clearPool() {
        List<ByteBuffer> dropped;
        synchronized (POOL) {
            dropped = new ArrayList<>(POOL);
            POOL.clear();
        }
        dropped.forEach(NativeGzip::free);
    }

    /**
     * Frees a direct buffer's memory now ({@code sun.misc.Unsafe.invokeCleaner}, as Netty and
     * Lucene do); where that is not available the buffer is left to the garbage collector.
     */
    private static void free(ByteBuffer buffer) {
        if (INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // not freeable here (never for the buffers this class allocates): the GC frees it
        }
    }

    private static Object unsafe() {
        try {
            Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Method invokeCleaner(Object unsafe) {
        try {
            return unsafe == null
                    ? null
                    : unsafe.getClass().getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static long directMemoryLimit() {
        long heap = Runtime.getRuntime().maxMemory();
        try {
            HotSpotDiagnosticMXBean vm =
                    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long limit = Long.parseLong(vm.getVMOption("MaxDirectMemorySize").getValue());
            return limit > 0 ? limit : heap; // 0: not set, the JDK then allows the heap's maximum
        } catch (RuntimeException | LinkageError e) { // not HotSpot: assume the JDK's default
            return heap;
        }
    }

    private static BufferPoolMXBean directBufferPool() {
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                return b;
            }
        }
        return null;
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
