package io.github.s3mergetree.objectstore;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The POSIX store: {@link ObjectStoreClient} over a local (or mounted) directory, with the
 * semantics of an object store. Keys are {@code /}-separated paths relative to the root; a key is
 * resolved only after checking that it stays inside the root.
 *
 * <ul>
 *   <li>Writes go to a temporary file next to the target ({@value #TMP_PREFIX}…, never listed) and
 *       appear by an atomic rename, so a reader (or a crash) never sees half an object.
 *   <li>{@code If-None-Match: *} is a hard link of the complete temporary file to the key, which
 *       fails if the key exists: atomic create-new, no lock. {@code If-Match} compares the ETag and
 *       renames under an exclusive {@link FileLock} of the key's lock file (the only lock, held for
 *       a compare and a rename).
 *   <li>Copies are hard links (no data is copied); deletes remove emptied directories, so
 *       "directories" come and go with their keys as S3 prefixes do.
 *   <li>The ETag is derived from size, modification time (ns) and file identity (inode), so it
 *       changes with every write.
 * </ul>
 *
 * The file system must support hard links (ext4, xfs, NFS, tmpfs do).
 */
public final class LocalFileObjectStoreClient implements ObjectStoreClient {
    /** Names of temporary and lock files; never listed. */
    static final String TMP_PREFIX = ".s3mt-tmp-";

    private static final String LOCK_PREFIX = ".s3mt-lock-";

    /** Names temporary files apart from other processes' (see {@link #temporaryFor}). */
    private static final String PROCESS_TOKEN = UUID.randomUUID().toString();

    private static final AtomicLong TEMPORARY_FILES = new AtomicLong();

    private final Path root;

    LocalFileObjectStoreClient(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** A client of the directory {@code rootDirectory} (created on the first write). */
    public static LocalFileObjectStoreClient of(String rootDirectory) {
        return new LocalFileObjectStoreClient(Path.of(rootDirectory));
    }

    /** The root directory, absolute. */
    public String root() {
        return root.toString();
    }

    @Override
    public ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException {
        return list(prefix, null, startAfter, continuationToken, maxKeys);
    }

    @Override
    public ListPage list(
            String prefix,
            String delimiter,
            String startAfter,
            String continuationToken,
            int maxKeys)
            throws IOException {
        // One page holds everything: local directories are small enough.
        if (continuationToken != null) {
            return new ListPage(List.of(), null);
        }
        if (delimiter != null && !delimiter.equals("/")) {
            throw new IllegalArgumentException("only '/' delimits local keys, got " + delimiter);
        }
        int slash = prefix.lastIndexOf('/');
        Path dir = slash < 0 ? root : resolve(prefix.substring(0, slash));
        List<ObjectSummary> out = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return new ListPage(out, null);
        }
        try (Stream<Path> files = delimiter == null ? Files.walk(dir) : Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith(TMP_PREFIX) || name.startsWith(LOCK_PREFIX)) {
                    continue;
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    continue; // deleted while listed
                }
                String key = root.relativize(p).toString().replace('\\', '/');
                if (!key.startsWith(prefix)
                        || (startAfter != null && KeyOrder.compare(key, startAfter) <= 0)) {
                    continue;
                }
                if (a.isRegularFile()) {
                    out.add(summary(key, a));
                } else if (delimiter != null && a.isDirectory()) {
                    prefixes.add(key + "/");
                }
            }
        } catch (NoSuchFileException e) {
            return new ListPage(List.of(), null); // the directory was deleted meanwhile
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                return list(prefix, delimiter, startAfter, null, maxKeys); // changed meanwhile
            }
            throw e.getCause();
        }
        // as S3 lists: by UTF-8 bytes
        out.sort((x, y) -> KeyOrder.compare(x.key(), y.key()));
        prefixes.sort(KeyOrder::compare);
        return new ListPage(out, prefixes, null);
    }

    private static ObjectSummary summary(String key, BasicFileAttributes a) {
        long mtime = a.lastModifiedTime().toMillis();
        long nanos = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        Object id = a.fileKey();
        String etag =
                Long.toHexString(a.size())
                        + "-"
                        + Long.toHexString(nanos)
                        + (id == null ? "" : "-" + Integer.toHexString(id.hashCode()));
        return new ObjectSummary(key, a.size(), etag, mtime);
    }

    @Override
    public ObjectSummary head(String key) throws IOException {
        try {
            return summary(key, Files.readAttributes(resolve(key), BasicFileAttributes.class));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(describe(key) + ": not found");
        }
    }

    @Override
    public InputStream get(String key) throws IOException {
        try {
            return Files.newInputStream(resolve(key));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(describe(key) + ": not found");
        }
    }

    @Override
    public InputStream get(String key, String etag, long start, long endExclusive)
            throws IOException {
        if (etag != null && !etag.isEmpty()) {
            String actual = head(key).etag();
            if (!actual.equals(etag)) {
                throw new ObjectChangedException(describe(key), etag, actual);
            }
        }
        FileChannel ch;
        try {
            ch = FileChannel.open(resolve(key), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(describe(key) + ": not found");
        }
        ch.position(start);
        InputStream in = Channels.newInputStream(ch);
        long[] left = {Math.max(0, endExclusive - start)};
        return new InputStream() {
            @Override
            public int read() throws IOException {
                if (left[0] <= 0) {
                    return -1;
                }
                int b = in.read();
                if (b >= 0) {
                    left[0]--;
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left[0] <= 0) {
                    return -1;
                }
                int n = in.read(b, off, (int) Math.min(len, left[0]));
                if (n > 0) {
                    left[0] -= n;
                }
                return n;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    @Override
    public RandomAccessInput openRandomAccess(String key, long size) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(resolve(key), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(describe(key) + ": not found");
        }
        long actual = ch.size();
        return new RandomAccessInput() {
            @Override
            public long size() {
                return actual;
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int len)
                    throws IOException {
                ByteBuffer b = ByteBuffer.wrap(buffer, offset, len);
                long pos = position;
                while (b.hasRemaining()) {
                    int n = ch.read(b, pos);
                    if (n < 0) {
                        throw new java.io.EOFException(
                                "unexpected end of " + describe(key) + " at offset " + pos);
                    }
                    pos += n;
                }
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    /** A new empty directory under the system's temporary directory (scratch space). */
    public static LocalFileObjectStoreClient temporary(String namePrefix) throws IOException {
        return new LocalFileObjectStoreClient(Files.createTempDirectory(namePrefix));
    }

    /** Deletes the root directory and everything in it (scratch space). */
    public void deleteRoot() throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public String put(String key, byte[] content, WriteCondition condition) throws IOException {
        Path target = resolve(key);
        Path tmp = writeTemporary(target, content, true); // makes the directory if missing
        try {
            switch (condition.kind()) {
                case NONE -> moveIntoPlace(tmp, target);
                case IF_ABSENT -> {
                    try {
                        Files.createLink(target, tmp);
                    } catch (FileAlreadyExistsException e) {
                        throw new PreconditionFailedException(
                                describe(key) + " exists (If-None-Match: *)", e);
                    }
                }
                case IF_MATCH -> replaceIfMatch(key, target, tmp, condition.etag());
            }
            syncDirectory(target.getParent());
        } catch (IOException | RuntimeException e) {
            deleteTemporary(tmp, e);
            throw e;
        }
        Files.deleteIfExists(tmp); // the object is in place (IF_ABSENT linked it: a second name)
        return head(key).etag();
    }

    private void replaceIfMatch(String key, Path target, Path tmp, String etag) throws IOException {
        Path lockFile = target.resolveSibling(LOCK_PREFIX + target.getFileName());
        // the file lock excludes other processes; threads of this JVM cannot both hold it (the
        // second lock() throws OverlappingFileLockException), so they queue on a stripe first
        java.util.concurrent.locks.ReentrantLock stripe =
                IF_MATCH_STRIPES[Math.floorMod(lockFile.hashCode(), IF_MATCH_STRIPES.length)];
        stripe.lock();
        try (FileChannel ch =
                        FileChannel.open(
                                lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = ch.lock()) {
            String actual;
            try {
                actual = head(key).etag();
            } catch (FileNotFoundException e) {
                throw new PreconditionFailedException(
                        describe(key) + " does not exist (If-Match: " + etag + ")", e);
            }
            if (!actual.equals(etag)) {
                throw new PreconditionFailedException(
                        describe(key) + " has ETag " + actual + ", not " + etag + " (If-Match)");
            }
            moveIntoPlace(tmp, target);
        } finally {
            stripe.unlock();
        }
    }

    /** The in-JVM locks that {@link #replaceIfMatch} takes before its file lock, by lock file. */
    private static final java.util.concurrent.locks.ReentrantLock[] IF_MATCH_STRIPES =
            new java.util.concurrent.locks.ReentrantLock[64];

    static {
        for (int i = 0; i < IF_MATCH_STRIPES.length; i++) {
            IF_MATCH_STRIPES[i] = new java.util.concurrent.locks.ReentrantLock();
        }
    }

    /**
     * A new temporary file's name beside {@code target}: unique to this process (a random token
     * drawn once) and call (a counter). {@link #createNew} refuses an existing name, so uniqueness
     * is a convenience, not the guarantee; a UUID per name read the OS's random source for every
     * file of every part.
     */
    private static Path temporaryFor(Path target) {
        return target.resolveSibling(
                TMP_PREFIX
                        + target.getFileName()
                        + "-"
                        + PROCESS_TOKEN
                        + "-"
                        + Long.toHexString(TEMPORARY_FILES.incrementAndGet()));
    }

    /**
     * Opens a new file, making its directory if it does not exist (yet, or any more: a delete
     * removed it meanwhile). The directory is made only when the open fails: {@link
     * Files#createDirectories} of an existing directory costs two exceptions, paid per file of
     * every part otherwise.
     */
    private static FileChannel createNew(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            Files.createDirectories(file.getParent());
            return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
    }

    private Path writeTemporary(Path target, byte[] content, boolean sync) throws IOException {
        Path tmp = temporaryFor(target);
        try (FileChannel ch = createNew(tmp)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (sync) {
                ch.force(true);
            }
        } catch (IOException | RuntimeException e) {
            deleteTemporary(tmp, e);
            throw e;
        }
        return tmp;
    }

    /**
     * Deletes a temporary file that did not become an object, and then the directories that leaves
     * empty: a prefix vanishes with its last key, as on S3, also when its other keys were deleted
     * while this file was being written (an abandoned part's files removed beside an upload still
     * running), and is not listed as a common prefix ever after.
     */
    private void deleteTemporary(Path tmp) throws IOException {
        Files.deleteIfExists(tmp);
        dropEmptiedDirectories(tmp.getParent());
    }

    /**
     * As {@link #deleteTemporary(Path)} while {@code failure} is thrown: adds to it, never masks
     * it.
     */
    private void deleteTemporary(Path tmp, Throwable failure) {
        try {
            deleteTemporary(tmp);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** Removes {@code dir} and its parents up to the root while they are empty. */
    private void dropEmptiedDirectories(Path dir) throws IOException {
        for (Path d = dir; d != null && !d.equals(root) && d.startsWith(root); d = d.getParent()) {
            try {
                Files.deleteIfExists(d);
            } catch (DirectoryNotEmptyException e) {
                return;
            }
        }
    }

    private static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + target + " cannot rename atomically", e);
        }
    }

    @Override
    public ObjectOutput upload(String key, boolean durable) throws IOException {
        Path target = resolve(key);
        Path tmp = temporaryFor(target);
        OutputStream out = Channels.newOutputStream(createNew(tmp)); // makes the directory
        return new ObjectOutput() {
            private long written;
            private boolean done;

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                written++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                written += len;
            }

            @Override
            public long bytesWritten() {
                return written;
            }

            @Override
            public void abort() throws IOException {
                if (!done) {
                    done = true;
                    try {
                        out.close();
                    } finally {
                        deleteTemporary(tmp);
                    }
                }
            }

            @Override
            public void close() throws IOException {
                if (done) {
                    return;
                }
                done = true;
                try {
                    out.close();
                    if (durable) {
                        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                            ch.force(true);
                        }
                    }
                    moveIntoPlace(tmp, target);
                    if (durable) {
                        syncDirectory(target.getParent());
                    }
                } catch (IOException | RuntimeException e) {
                    out.close();
                    deleteTemporary(tmp, e);
                    throw e;
                }
            }
        };
    }

    @Override
    public void copy(String sourceKey, String targetKey) throws IOException {
        Path source = resolve(sourceKey);
        Path target = resolve(targetKey);
        try {
            // a new key is the link itself: its name appears with the whole content at once
            Files.createLink(target, source);
            return;
        } catch (FileAlreadyExistsException e) {
            // replaced below through a temporary name, so readers see the old or the new object
        } catch (UnsupportedOperationException | IOException e) {
            // no such source, no directory yet, or no hard links here: decided below
        }
        Path tmp = temporaryFor(target);
        try {
            linkOrCopy(source, tmp, sourceKey);
            moveIntoPlace(tmp, target);
        } catch (IOException | RuntimeException e) {
            deleteTemporary(tmp, e); // and the target's directory if this made it for nothing
            throw e;
        }
    }

    /**
     * Gives {@code source}'s content the new name {@code tmp}: a hard link, a copy where the file
     * system has none; makes {@code tmp}'s directory if it is missing.
     */
    private void linkOrCopy(Path source, Path tmp, String sourceKey) throws IOException {
        for (boolean directoryMade = false; ; directoryMade = true) {
            try {
                Files.createLink(tmp, source);
                return;
            } catch (UnsupportedOperationException | IOException e) {
                if (!Files.exists(source)) {
                    throw new FileNotFoundException(describe(sourceKey) + ": not found");
                }
                if (e instanceof NoSuchFileException && !directoryMade) {
                    Files.createDirectories(tmp.getParent());
                    continue;
                }
                Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
                return;
            }
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Path p = deleteFileAndLock(key);
        // drop emptied directories, as S3 prefixes vanish with their last key
        dropEmptiedDirectories(p.getParent());
    }

    /** Deletes {@code key}'s file and its lock file (missing ones are fine); returns the file. */
    private Path deleteFileAndLock(String key) throws IOException {
        Path p = resolve(key);
        Files.deleteIfExists(p);
        Files.deleteIfExists(p.resolveSibling(LOCK_PREFIX + p.getFileName()));
        return p;
    }

    /**
     * Deletes every key as {@link #delete} does, then drops the directories this emptied once per
     * directory, deepest first, instead of attempting the key's directory after every key (an
     * {@code rmdir} refused with an exception per file of a part).
     */
    @Override
    public void deleteAll(Collection<String> keys) throws IOException {
        Set<Path> directories = new HashSet<>();
        for (String key : keys) {
            directories.add(deleteFileAndLock(key).getParent());
        }
        List<Path> deepestFirst = new ArrayList<>(directories);
        deepestFirst.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        for (Path d : deepestFirst) {
            dropEmptiedDirectories(d);
        }
    }

    @Override
    public boolean supportsConditionalWrites() {
        return true;
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems cannot fsync a directory; the rename is still atomic
        }
    }

    /** Resolves a key under the root, refusing keys that would leave it. */
    private Path resolve(String key) throws IOException {
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root) || key.startsWith("/")) {
            throw new IOException("key '" + key + "' points outside the root directory " + root);
        }
        return p;
    }

    @Override
    public String describe(String key) {
        // root.resolve: "file:///data/x.csv" also when the root is "/" (never "file:////...")
        return "file://" + root.resolve(key);
    }

    @Override
    public void close() {}
}
