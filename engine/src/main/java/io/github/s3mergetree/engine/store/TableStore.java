package io.github.s3mergetree.engine.store;

import io.github.s3mergetree.objectstore.LocalFileObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectChangedException;
import io.github.s3mergetree.objectstore.ObjectOutput;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.PreconditionFailedException;
import io.github.s3mergetree.objectstore.RandomAccessInput;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.objectstore.RetryableStoreException;
import io.github.s3mergetree.objectstore.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The storage seam of the engine (ClickHouse's {@code IObjectStorage}; Paimon's and Iceberg's
 * {@code FileIO}): the objects of one table, by keys relative to the table's root ({@code
 * all_1_1_0/id.bin}, {@code s3mergetree_metadata/log/…}). The part writer, part reader, merger,
 * part log and the commit protocol see only this; what the table lives on is the {@link
 * ObjectStoreClient} underneath — S3 (keys under a bucket prefix) or a local directory (the POSIX
 * store), both with the same guarantees: objects appear whole, create-only and compare-and-swap
 * writes are atomic, copies and deletes are per object.
 *
 * <p>Calls that may be repeated are retried under a {@link RetryPolicy} (throttling, 5xx,
 * connection errors; {@link RetryPolicy#STORE_DEFAULT} unless given). A retried conditional write
 * can meet a precondition failure for a write that in fact succeeded (the first response was lost):
 * {@link #createIfAbsent} and {@link #replaceIfMatch} then compare the object with what they wrote
 * and report their own write as made, never as a conflict.
 */
public final class TableStore implements AutoCloseable {
    private static final RetryPolicy DEFAULT_RETRY = RetryPolicy.STORE_DEFAULT;

    private final ObjectStoreClient client;
    private final String prefix;
    private final String location;
    private final RetryPolicy retry;
    private final boolean closeClient;

    private TableStore(
            ObjectStoreClient client,
            String prefix,
            String location,
            RetryPolicy retry,
            boolean closeClient) {
        this.client = Objects.requireNonNull(client, "client");
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            throw new IllegalArgumentException("a table prefix ends with '/', got " + prefix);
        }
        this.prefix = prefix;
        this.location = location;
        this.retry = retry;
        this.closeClient = closeClient;
    }

    /**
     * The table under {@code prefix} (empty, or ending with {@code /}) of {@code client}; {@code
     * location} names it in messages ({@code s3://bucket/tables/posts}). The store closes the
     * client when it is closed.
     */
    public static TableStore of(ObjectStoreClient client, String prefix, String location) {
        return new TableStore(client, prefix, location, DEFAULT_RETRY, true);
    }

    /**
     * The table under {@code prefix} of {@code client} as {@link #of(ObjectStoreClient, String,
     * String)}, its requests retried under {@code retry}.
     */
    public static TableStore of(
            ObjectStoreClient client, String prefix, String location, RetryPolicy retry) {
        return new TableStore(client, prefix, location, retry, true);
    }

    /** The table in the local directory {@code directory} (the POSIX store). */
    public static TableStore local(String directory) {
        LocalFileObjectStoreClient c = LocalFileObjectStoreClient.of(directory);
        return new TableStore(c, "", c.root(), DEFAULT_RETRY, true);
    }

    /** Where the table is, for messages and for ClickHouse ({@code s3://…} or a directory). */
    public String location() {
        return location;
    }

    /** {@code key} as a full name, for messages. */
    public String describe(String key) {
        return location.endsWith("/") ? location + key : location + "/" + key;
    }

    /** The client underneath (for stores that share it, e.g. a scratch space). */
    public ObjectStoreClient client() {
        return client;
    }

    /** The key prefix of the table inside the client's root ({@code ""} or ending with /). */
    public String prefix() {
        return prefix;
    }

    /**
     * How many bytes a sequential reader of a large object reads at once: 256 KiB on S3 (a ranged
     * GET each), 64 KiB locally.
     */
    public int readAheadBytes() {
        return client instanceof LocalFileObjectStoreClient ? 64 << 10 : 256 << 10;
    }

    /** An input stream of the whole object {@code key} (not retried: read it at once). */
    public InputStream openStream(String key) throws IOException {
        return client.get(prefix + key);
    }

    /** Whether conditional writes are enforced (see {@link #createIfAbsent}). */
    public boolean supportsConditionalWrites() {
        return client.supportsConditionalWrites();
    }

    private <T> T retried(RetryPolicy.IoCallable<T> call) throws IOException {
        return retry.call(call, RetryPolicy.RetryListener.NONE, RetryPolicy.Sleeper.SYSTEM);
    }

    // ------------------------------------------------------------------ reads

    /** The whole object {@code key}; {@link FileNotFoundException} if it does not exist. */
    public byte[] read(String key) throws IOException {
        return retried(
                () -> {
                    try (InputStream in = client.get(prefix + key)) {
                        return in.readAllBytes();
                    }
                });
    }

    /** The whole object {@code key}, if it exists. */
    public Optional<byte[]> readIfExists(String key) throws IOException {
        try {
            return Optional.of(read(key));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The content of an object and the ETag of exactly that content. */
    public record Versioned(byte[] content, String etag) {}

    /**
     * The whole object {@code key} with its ETag, if it exists: a HEAD, then a GET pinned to that
     * ETag (read again if the object changed in between), so that a later {@link #replaceIfMatch}
     * with this ETag replaces exactly the content read.
     */
    public Optional<Versioned> readVersioned(String key) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Optional<ObjectSummary> head = stat(key);
            if (head.isEmpty()) {
                return Optional.empty();
            }
            String etag = head.get().etag();
            long size = head.get().size();
            try {
                byte[] content =
                        retried(
                                () -> {
                                    try (InputStream in = client.get(prefix + key, etag, 0, size)) {
                                        return in.readAllBytes();
                                    }
                                });
                return Optional.of(new Versioned(content, etag));
            } catch (FileNotFoundException e) {
                return Optional.empty();
            } catch (ObjectChangedException e) {
                if (attempt >= 9) {
                    throw e;
                }
            }
        }
    }

    /** The object's size and ETag, if it exists. */
    public Optional<ObjectSummary> stat(String key) throws IOException {
        try {
            return Optional.of(retried(() -> client.head(prefix + key)));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code key} exists. */
    public boolean exists(String key) throws IOException {
        return stat(key).isPresent();
    }

    /**
     * Positional reads of {@code key} of {@code size} bytes (the size comes from the part's
     * checksums: no HEAD is needed); each read is retried.
     */
    public RandomAccessInput openRandomAccess(String key, long size) throws IOException {
        RandomAccessInput in = retried(() -> client.openRandomAccess(prefix + key, size));
        return new RandomAccessInput() {
            @Override
            public long size() {
                return in.size();
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int len)
                    throws IOException {
                retried(
                        () -> {
                            in.readFully(position, buffer, offset, len);
                            return null;
                        });
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    /** Keys under {@code keyPrefix} (relative to the table), all pages, in key order. */
    public List<ObjectSummary> list(String keyPrefix) throws IOException {
        return listAfter(keyPrefix, null);
    }

    /** Keys under {@code keyPrefix} after {@code startAfter} (a relative key), in key order. */
    public List<ObjectSummary> listAfter(String keyPrefix, String startAfter) throws IOException {
        List<ObjectSummary> out = new ArrayList<>();
        String token = null;
        String after = startAfter == null ? null : prefix + startAfter;
        do {
            String t = token;
            ObjectStoreClient.ListPage page =
                    retried(() -> client.list(prefix + keyPrefix, null, after, t, 1000));
            for (ObjectSummary o : page.objects()) {
                out.add(
                        new ObjectSummary(
                                o.key().substring(prefix.length()),
                                o.size(),
                                o.etag(),
                                o.lastModifiedMillis()));
            }
            token = page.nextContinuationToken();
        } while (token != null);
        return out;
    }

    /**
     * The names of the "directories" directly under {@code keyPrefix} (empty or ending with /):
     * {@code all_1_1_0}, {@code tmp_insert_…}, {@code detached}, in name order.
     */
    public List<String> listDirectories(String keyPrefix) throws IOException {
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            String t = token;
            ObjectStoreClient.ListPage page =
                    retried(() -> client.list(prefix + keyPrefix, "/", null, t, 1000));
            for (String p : page.commonPrefixes()) {
                String rel = p.substring(prefix.length() + keyPrefix.length());
                out.add(rel.endsWith("/") ? rel.substring(0, rel.length() - 1) : rel);
            }
            token = page.nextContinuationToken();
        } while (token != null);
        return out;
    }

    /**
     * The names of the objects directly under {@code keyPrefix} (empty or ending with /), not those
     * of its "directories": {@code checksums.txt}, {@code data.bin}, … of a part, in name order.
     */
    public List<String> listFileNames(String keyPrefix) throws IOException {
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            String t = token;
            ObjectStoreClient.ListPage page =
                    retried(() -> client.list(prefix + keyPrefix, "/", null, t, 1000));
            for (ObjectSummary o : page.objects()) {
                String name = o.key().substring(prefix.length() + keyPrefix.length());
                if (!name.isEmpty() && !name.contains("/")) {
                    out.add(name);
                }
            }
            token = page.nextContinuationToken();
        } while (token != null);
        return out;
    }

    // ----------------------------------------------------------------- writes

    /**
     * Starts writing {@code key} as a stream; it appears whole when closed ({@code durable}: fsync
     * on a local store). Not retried as a whole: the output retries its own requests.
     */
    public ObjectOutput create(String key, boolean durable) throws IOException {
        return client.upload(prefix + key, durable);
    }

    /** Writes the small object {@code key} (atomically; replaces an existing one). */
    public void write(String key, byte[] content, boolean durable) throws IOException {
        retried(
                () -> {
                    try (ObjectOutput out = client.upload(prefix + key, durable)) {
                        out.write(content);
                    }
                    return null;
                });
    }

    /** Puts {@code key} durably, replacing what is there; returns its ETag. */
    public String put(String key, byte[] content) throws IOException {
        return retried(() -> client.put(prefix + key, content, WriteCondition.NONE));
    }

    /**
     * Creates {@code key} only if it does not exist ({@code If-None-Match: *}).
     *
     * @return false if it existed (another writer won); true if this call created it, also when an
     *     attempt whose answer was lost made it and the retry met a 412 on the very same bytes
     */
    public boolean createIfAbsent(String key, byte[] content) throws IOException {
        boolean[] repeated = {false};
        try {
            retried(() -> repeatable(repeated, WriteCondition.IF_ABSENT, key, content));
            return true;
        } catch (PreconditionFailedException e) {
            // a repeated create that finds the key holding exactly our bytes: its first attempt
            // made it and the answer was lost
            return repeated[0] && ownContent(key, content).isPresent();
        }
    }

    /**
     * One attempt of a conditional put; notes in {@code repeated} that it failed in a way that is
     * retried (the write may have been made all the same), so that a 412 of a later attempt is
     * checked against the object's content.
     */
    private String repeatable(
            boolean[] repeated, WriteCondition condition, String key, byte[] content)
            throws IOException {
        try {
            return client.put(prefix + key, content, condition);
        } catch (RetryableStoreException e) {
            repeated[0] = true;
            throw e;
        }
    }

    /** The ETag of {@code key} if it holds exactly {@code content}. */
    private Optional<String> ownContent(String key, byte[] content) throws IOException {
        Optional<Versioned> now = readVersioned(key);
        return now.isPresent() && java.util.Arrays.equals(now.get().content(), content)
                ? Optional.of(now.get().etag())
                : Optional.empty();
    }

    /**
     * Replaces {@code key} only if it still has {@code etag} ({@code If-Match}).
     *
     * @return the new ETag, or empty if the object changed meanwhile (not by a lost answer's
     *     attempt of this call: a retry that meets a 412 on exactly these bytes returns their ETag)
     */
    public Optional<String> replaceIfMatch(String key, byte[] content, String etag)
            throws IOException {
        boolean[] repeated = {false};
        try {
            return Optional.of(
                    retried(
                            () ->
                                    repeatable(
                                            repeated, WriteCondition.ifMatch(etag), key, content)));
        } catch (PreconditionFailedException e) {
            // a repeated replace that finds exactly our bytes: its first attempt made it
            return repeated[0] ? ownContent(key, content) : Optional.empty();
        }
    }

    /** Copies {@code from} to {@code to} inside the store (a hard link locally). */
    public void copy(String from, String to) throws IOException {
        retried(
                () -> {
                    client.copy(prefix + from, prefix + to);
                    return null;
                });
    }

    /** Deletes {@code key}; a missing key is fine. */
    public void delete(String key) throws IOException {
        retried(
                () -> {
                    client.delete(prefix + key);
                    return null;
                });
    }

    /** Deletes {@code keys} (relative); missing ones are fine. */
    public void deleteAll(Collection<String> keys) throws IOException {
        if (keys.isEmpty()) {
            return;
        }
        List<String> full = new ArrayList<>(keys.size());
        for (String k : keys) {
            full.add(prefix + k);
        }
        retried(
                () -> {
                    client.deleteAll(full);
                    return null;
                });
    }

    /** Deletes every key under {@code keyPrefix}; returns how many there were. */
    public int deletePrefix(String keyPrefix) throws IOException {
        List<String> keys = new ArrayList<>();
        for (ObjectSummary o : list(keyPrefix)) {
            keys.add(o.key());
        }
        deleteAll(keys);
        return keys.size();
    }

    @Override
    public void close() {
        if (closeClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "TableStore(" + location + ")";
    }
}
