package io.github.s3mergetree.cli.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.classloading.SubmoduleClassLoader;
import org.apache.flink.runtime.rpc.AddressResolution;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;

/**
 * Loads Flink's Pekko RPC system for the command's embedded MiniCluster from a copy of its jar that
 * is kept between runs, instead of extracting it anew at every start.
 *
 * <p>Flink ships the RPC system (Pekko, Scala, a shaded Netty: 24 MB) as a jar inside {@code
 * flink-rpc-akka-loader}; its own loader inflates that jar into {@code io.tmp.dirs} under a random
 * name at every start and loads it in an isolated class loader. Measured with async-profiler on the
 * command, the extraction and the loading of its classes from the fresh copy were about a quarter
 * of the main thread's start-up CPU; a fresh name also defeats class-data sharing, which matches
 * classes of a class loader by their jar. This loader keeps one copy per jar version (named by the
 * entry's size and CRC-32, checked when it is loaded) in {@code <tmp>/s3-mergetree-<user>/rpc/}, a
 * directory that must be the user's own and not writable by others (else Flink's own loader is
 * used), and loads it in the same kind of isolated class loader as Flink does.
 *
 * <p>A JVM loads the RPC system once: every later MiniCluster of the same JVM (the benchmark's warm
 * runs, a test suite, an application that runs several jobs) gets the same {@link RpcSystem} and
 * class loader, as a TaskManager has one for its life. Flink's loader gives each MiniCluster a
 * fresh class loader, and every MiniCluster then loaded and JIT-compiled Pekko's 1,466 classes
 * again (measured: 10 % of a warm 2.4M-row ingest's CPU; BENCHMARKS.md, issue 20).
 *
 * <p>It comes before Flink's loader ({@link #getLoadPriority()} -1); any failure here makes Flink
 * fall back to its own loader. {@code -Ds3mergetree.rpc.cache=false} turns it off.
 */
public final class CachedRpcSystemLoader implements RpcSystemLoader {
    /** The system property that turns the cache off ({@code false}). */
    public static final String ENABLED_PROPERTY = "s3mergetree.rpc.cache";

    /** The RPC system's jar inside Flink's loader jar. */
    static final String RPC_JAR = "flink-rpc-akka.jar";

    /**
     * The RPC systems this JVM has loaded, by the absolute path of the jar copy they were loaded
     * from: each is loaded once and serves every later MiniCluster of the JVM.
     */
    private static final Map<Path, RpcSystem> LOADED = new HashMap<>();

    private final Path directory;

    /** The loader Flink's {@link ServiceLoader} creates: the cache under {@link RunDirectories}. */
    public CachedRpcSystemLoader() {
        this(null);
    }

    /** A loader caching in {@code directory} ({@code null}: {@code RunDirectories.base()/rpc}). */
    CachedRpcSystemLoader(Path directory) {
        this.directory = directory;
    }

    @Override
    public int getLoadPriority() {
        return -1; // before Flink's PekkoRpcSystemLoader (0)
    }

    @Override
    public RpcSystem loadRpcSystem(Configuration config) {
        if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY))) {
            throw new RpcLoaderException("the RPC jar cache is off (-D" + ENABLED_PROPERTY + ")");
        }
        ClassLoader flink = RpcSystem.class.getClassLoader();
        URL resource = flink.getResource(RPC_JAR);
        if (resource == null) {
            throw new RpcLoaderException(RPC_JAR + " is not on the classpath");
        }
        try {
            Path dir = directory != null ? directory : RunDirectories.base().resolve("rpc");
            return new SharedRpcSystem(loaded(resource, dir));
        } catch (IOException e) {
            throw new RpcLoaderException("could not use a cached copy of " + RPC_JAR, e);
        }
    }

    /**
     * The RPC system loaded from the cached copy of {@code resource} in {@code dir}: loaded by the
     * first call for that copy, the same instance (and class loader) for every later one.
     */
    private static RpcSystem loaded(URL resource, Path dir) throws IOException {
        Path key = dir.toAbsolutePath().resolve(copyName(jarEntry(resource).getJarEntry()));
        synchronized (LOADED) {
            RpcSystem system = LOADED.get(key);
            if (system != null) {
                return system;
            }
            Path jar = cachedCopy(resource, dir);
            SubmoduleClassLoader loader =
                    new SubmoduleClassLoader(
                            new URL[] {jar.toUri().toURL()}, RpcSystem.class.getClassLoader());
            try {
                system = ServiceLoader.load(RpcSystem.class, loader).iterator().next();
            } catch (RuntimeException | Error e) {
                loader.close();
                throw e;
            }
            LOADED.put(key, system);
            return system;
        }
    }

    /** The connection to the jar entry {@code resource}, whose entry has a size and a CRC-32. */
    private static JarURLConnection jarEntry(URL resource) throws IOException {
        URLConnection c = resource.openConnection();
        if (!(c instanceof JarURLConnection jar)) {
            throw new IOException(resource + " is not an entry of a jar");
        }
        JarEntry entry = jar.getJarEntry();
        if (entry.getSize() < 0 || entry.getCrc() < 0) {
            throw new IOException(resource + " has no size or CRC in its jar");
        }
        return jar;
    }

    /** The name of the cached copy of {@code entry}: its size and CRC-32. */
    private static String copyName(JarEntry entry) {
        return String.format(Locale.ROOT, "flink-rpc-%d-%08x.jar", entry.getSize(), entry.getCrc());
    }

    /**
     * The copy of the jar entry {@code resource} in {@code dir}: the existing one when its size and
     * CRC-32 equal the entry's, else a new one (written beside it, then moved in place atomically,
     * so a concurrent run never sees half a jar).
     */
    static Path cachedCopy(URL resource, Path dir) throws IOException {
        JarURLConnection c = jarEntry(resource);
        JarEntry entry = c.getJarEntry();
        long size = entry.getSize();
        long crc = entry.getCrc();
        boolean posix = privateDirectory(dir);
        Path cached = dir.resolve(copyName(entry));
        if (Files.isRegularFile(cached, LinkOption.NOFOLLOW_LINKS)
                && Files.size(cached) == size
                && crc(cached) == crc) {
            return cached;
        }
        Path tmp =
                posix
                        ? Files.createTempFile(
                                dir,
                                "flink-rpc-",
                                ".tmp",
                                PosixFilePermissions.asFileAttribute(
                                        PosixFilePermissions.fromString("rw-------")))
                        : Files.createTempFile(dir, "flink-rpc-", ".tmp");
        try {
            CRC32 sum = new CRC32();
            long written = 0;
            try (InputStream in = c.getInputStream();
                    OutputStream out = Files.newOutputStream(tmp)) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                    sum.update(buf, 0, n);
                    written += n;
                }
            }
            if (written != size || sum.getValue() != crc) {
                throw new IOException(
                        "the copy of " + resource + " does not match its entry (size or CRC)");
            }
            Files.move(
                    tmp,
                    cached,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            return cached;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Creates {@code dir} (mode 700) if needed and checks that it and its parent are directories of
     * this user that nobody else can write to: a jar there is code this JVM will run. Returns
     * whether the file system is POSIX.
     */
    private static boolean privateDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(
                    dir,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // ours from an earlier run, checked below
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
            return false; // not POSIX: the per-user temp directory is the protection
        }
        UserPrincipal me =
                dir.getFileSystem()
                        .getUserPrincipalLookupService()
                        .lookupPrincipalByName(System.getProperty("user.name"));
        for (Path p : new Path[] {dir, dir.getParent()}) {
            if (p == null) {
                continue;
            }
            PosixFileAttributes a =
                    Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> perms = a.permissions();
            if (!a.isDirectory()
                    || !a.owner().equals(me)
                    || perms.contains(PosixFilePermission.GROUP_WRITE)
                    || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new IOException(
                        p
                                + " is not a directory of "
                                + me.getName()
                                + " that only they can write to (owner "
                                + a.owner().getName()
                                + ", "
                                + PosixFilePermissions.toString(perms)
                                + ")");
            }
        }
        return true;
    }

    private static long crc(Path file) throws IOException {
        CRC32 sum = new CRC32();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                sum.update(buf);
                buf.clear();
            }
        }
        return sum.getValue();
    }

    /**
     * One MiniCluster's handle on the JVM's shared RPC system: it delegates everything, and its
     * {@link #close()} closes nothing, because the RPC system and its class loader serve every
     * later MiniCluster of this JVM (and Pekko's JVM shutdown hook, CoordinatedShutdown, loads
     * classes of that loader when the JVM exits: closed earlier, the hook printed {@code
     * NoClassDefFoundError: CoordinatedShutdown$JvmExitReason$}). Each MiniCluster's own actor
     * system is still started and stopped by its {@code RpcService}.
     */
    private static final class SharedRpcSystem implements RpcSystem {
        private final RpcSystem delegate;

        SharedRpcSystem(RpcSystem delegate) {
            this.delegate = delegate;
        }

        @Override
        public RpcServiceBuilder localServiceBuilder(Configuration configuration) {
            return delegate.localServiceBuilder(configuration);
        }

        @Override
        public RpcServiceBuilder remoteServiceBuilder(
                Configuration configuration, String externalAddress, String externalPortRange) {
            return delegate.remoteServiceBuilder(configuration, externalAddress, externalPortRange);
        }

        @Override
        public String getRpcUrl(
                String hostname,
                int port,
                String endpointName,
                AddressResolution addressResolution,
                Configuration config)
                throws UnknownHostException {
            return delegate.getRpcUrl(hostname, port, endpointName, addressResolution, config);
        }

        @Override
        public InetSocketAddress getInetSocketAddressFromRpcUrl(String url) throws Exception {
            return delegate.getInetSocketAddressFromRpcUrl(url);
        }

        @Override
        public long getMaximumMessageSizeInBytes(Configuration config) {
            return delegate.getMaximumMessageSizeInBytes(config);
        }

        /** Closes nothing: the shared RPC system lives as long as the JVM. */
        @Override
        public void close() {}
    }
}
