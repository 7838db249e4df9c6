package io.github.s3mergetree.objectstore;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@link ObjectStoreClient} over a local directory ({@code file://}), for development and tests.
 * Keys are {@code /}-separated paths relative to the root; a key is resolved only after checking
 * that it stays inside the root. The ETag is derived from size and modification time.
 */
final class LocalFileObjectStoreClient implements ObjectStoreClient {
    private final Path root;

    LocalFileObjectStoreClient(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException {
        // One page holds everything: local directories are small enough.
        if (continuationToken != null) {
            return new ListPage(List.of(), null);
        }
        int slash = prefix.lastIndexOf('/');
        Path dir = slash < 0 ? root : resolve(prefix.substring(0, slash));
        List<ObjectSummary> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return new ListPage(out, null);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                if (!a.isRegularFile()) {
                    continue;
                }
                String key = root.relativize(p).toString().replace('\\', '/');
                if (!key.startsWith(prefix)
                        || (startAfter != null && KeyOrder.compare(key, startAfter) <= 0)) {
                    continue;
                }
                out.add(summary(key, a));
            }
        }
        // as S3 lists: by UTF-8 bytes
        out.sort((x, y) -> KeyOrder.compare(x.key(), y.key()));
        return new ListPage(out, null);
    }

    private static ObjectSummary summary(String key, BasicFileAttributes a) {
        long mtime = a.lastModifiedTime().toMillis();
        return new ObjectSummary(
                key, a.size(), Long.toHexString(a.size()) + "-" + Long.toHexString(mtime), mtime);
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
    public InputStream get(String key, String etag, long start, long endExclusive)
            throws IOException {
        if (etag != null && !etag.isEmpty()) {
            String actual = head(key).etag();
            if (!actual.equals(etag)) {
                throw new ObjectChangedException(describe(key), etag, actual);
            }
        }
        FileChannel ch = FileChannel.open(resolve(key), StandardOpenOption.READ);
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
