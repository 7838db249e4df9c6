package io.github.s3mergetree.examples.cli;

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
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.classloading.SubmoduleClassLoader;
import org.apache.flink.runtime.rpc.AddressResolution;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * entry's size and CRC-32, checked on every use) in {@code <tmp>/s3-mergetree-<user>/rpc/}, a
 * directory that must be the user's own and not writable by others (else Flink's own loader is
 * used), and loads it in the same kind of isolated class loader as Flink does.
 *
 * <p>It comes before Flink's loader ({@link #getLoadPriority()} -1); any failure here makes Flink
 * fall back to its own loader. {@code -Ds3mergetree.rpc.cache=false} turns it off.
 */
public final class CachedRpcSystemLoader implements RpcSystemLoader {
    /** The system property that turns the cache off ({@code false}). */
    public static final String ENABLED_PROPERTY = "s3mergetree.rpc.cache";

    /** The RPC system's jar inside Flink's loader jar. */
    static final String RPC_JAR = "flink-rpc-akka.jar";

    private static final Logger LOG = LoggerFactory.getLogger(CachedRpcSystemLoader.class);

    /** The class loader of the RPC system closed last, kept open for Pekko's shutdown hook. */
    private static final AtomicReference<SubmoduleClassLoader> RETIRED = new AtomicReference<>();

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
            Path jar = cachedCopy(resource, dir);
            SubmoduleClassLoader loader =
                    new SubmoduleClassLoader(new URL[] {jar.toUri().toURL()}, flink);
            try {
                RpcSystem system = ServiceLoader.load(RpcSystem.class, loader).iterator().next();
                return new ClosingRpcSystem(system, loader);
            } catch (RuntimeException | Error e) {
                loader.close();
                throw e;
            }
        } catch (IOException e) {
            throw new RpcLoaderException("could not use a cached copy of " + RPC_JAR, e);
        }
    }

    /**
     * The copy of the jar entry {@code resource} in {@code dir}: the existing one when its size and
     * CRC-32 equal the entry's, else a new one (written beside it, then moved in place atomically,
     * so a concurrent run never sees half a jar).
     */
    static Path cachedCopy(URL resource, Path dir) throws IOException {
        URLConnection c = resource.openConnection();
        if (!(c instanceof JarURLConnection)) {
            throw new IOException(resource + " is not an entry of a jar");
        }
        JarEntry entry = ((JarURLConnection) c).getJarEntry();
        long size = entry.getSize();
        long crc = entry.getCrc();
        if (size < 0 || crc < 0) {
            throw new IOException(resource + " has no size or CRC in its jar");
        }
        boolean posix = privateDirectory(dir);
        Path cached = dir.resolve(String.format(Locale.ROOT, "flink-rpc-%d-%08x.jar", size, crc));
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

    /** The loaded RPC system; closing it retires its class loader (the jar stays cached). */
    private static final class ClosingRpcSystem implements RpcSystem {
        private final RpcSystem delegate;
        private final SubmoduleClassLoader loader;

        ClosingRpcSystem(RpcSystem delegate, SubmoduleClassLoader loader) {
            this.delegate = delegate;
            this.loader = loader;
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

        /**
         * Closes the RPC system and retires its class loader: the loader retired before is closed,
         * this one stays open until the next is retired. Pekko registers a JVM shutdown hook
         * (CoordinatedShutdown) that loads classes of this loader when the JVM exits; closed at
         * once, the hook of a finished command printed {@code NoClassDefFoundError:
         * CoordinatedShutdown$JvmExitReason$} on exit. One open loader per JVM at most.
         */
        @Override
        public void close() {
            try {
                delegate.close();
            } finally {
                SubmoduleClassLoader previous = RETIRED.getAndSet(loader);
                if (previous != null && previous != loader) {
                    try {
                        previous.close();
                    } catch (IOException e) {
                        LOG.debug("closing a retired RPC class loader failed", e);
                    }
                }
            }
        }
    }
}
