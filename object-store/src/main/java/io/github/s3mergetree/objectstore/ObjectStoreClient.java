package io.github.s3mergetree.objectstore;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;

/**
 * The object-store calls both connectors need: listing (recursive, or one level with a delimiter),
 * HEAD, ranged GET, and writes — a plain PUT, a conditional PUT ({@code If-None-Match: *} creates
 * only a new object, {@code If-Match} replaces only the version read), a streamed upload (multipart
 * beyond a part size, bounded memory), server-side copy and delete.
 *
 * <p>Why an interface: the same source and the same MergeTree table code run against S3 (via the
 * AWS SDK, {@link AwsS3ObjectStoreClient}) and against a local directory ({@link
 * LocalFileObjectStoreClient}, the POSIX store, which gives the same guarantees with hard links and
 * renames), and tests can inject failures. Implementations do not retry reads and writes that a
 * caller can repeat; {@link RetryPolicy} does, so that every retry is counted. Retryable failures
 * (503, 5xx, connection problems) are thrown as {@link RetryableStoreException}; a changed ETag on
 * read as {@link ObjectChangedException}; a failed write condition as {@link
 * PreconditionFailedException}; a missing object as {@link java.io.FileNotFoundException}.
 *
 * <p>Keys are {@code /}-separated and relative to the client's root (a bucket, or a directory);
 * they are untrusted input for a local store, which refuses keys that leave its root.
 */
public interface ObjectStoreClient extends AutoCloseable {

    /** One page of a recursive listing. {@code continuationToken} is null for the first page. */
    ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException;

    /**
     * One page of a listing; with {@code delimiter} ({@code "/"}) keys that have it after the
     * prefix are rolled up into {@link ListPage#commonPrefixes()} (S3's "directories").
     */
    default ListPage list(
            String prefix,
            String delimiter,
            String startAfter,
            String continuationToken,
            int maxKeys)
            throws IOException {
        if (delimiter == null) {
            return list(prefix, startAfter, continuationToken, maxKeys);
        }
        throw new UnsupportedOperationException(getClass().getName() + " lists no delimiters");
    }

    /** The current metadata of {@code key}. */
    ObjectSummary head(String key) throws IOException;

    /**
     * The bytes {@code [start, endExclusive)} of {@code key}, which must still have {@code etag}
     * (empty: any). The caller closes the stream.
     */
    InputStream get(String key, String etag, long start, long endExclusive) throws IOException;

    /** The whole of {@code key}. The caller closes the stream. */
    default InputStream get(String key) throws IOException {
        return get(key, "", 0, head(key).size());
    }

    /**
     * Positional reads of {@code key}, whose size the caller knows (from a listing or a manifest):
     * by default one ranged GET per read.
     */
    default RandomAccessInput openRandomAccess(String key, long size) throws IOException {
        ObjectStoreClient client = this;
        return new RandomAccessInput() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int len)
                    throws IOException {
                if (position < 0 || position + len > size) {
                    throw new java.io.EOFException(
                            describe(key)
                                    + ": bytes "
                                    + position
                                    + "-"
                                    + (position + len)
                                    + " are outside its "
                                    + size
                                    + " bytes");
                }
                try (InputStream in = client.get(key, "", position, position + len)) {
                    int n = in.readNBytes(buffer, offset, len);
                    if (n != len) {
                        throw new RetryableStoreException(
                                describe(key) + ": " + n + " of " + len + " bytes read",
                                false,
                                null);
                    }
                }
            }

            @Override
            public void close() {}
        };
    }

    /**
     * Writes {@code content} as {@code key} if {@code condition} holds, atomically: readers see the
     * old object or the new one, never a part of it.
     *
     * @return the new object's ETag
     * @throws PreconditionFailedException if the condition does not hold (412)
     */
    default String put(String key, byte[] content, WriteCondition condition) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " is read-only");
    }

    /**
     * Starts writing {@code key} as a stream: the object appears when the output is closed (a
     * multipart upload on S3 once it outgrows one part; a temporary file renamed into place
     * locally), never partially; {@link ObjectOutput#abort()} discards it. Memory stays at one part
     * buffer. {@code durable}: a local store fsyncs the file before it appears (S3 objects are
     * durable when they appear).
     */
    default ObjectOutput upload(String key, boolean durable) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " is read-only");
    }

    /** Copies {@code sourceKey} to {@code targetKey} inside the store (server-side). */
    default void copy(String sourceKey, String targetKey) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " is read-only");
    }

    /** Deletes {@code key}; a missing key is fine. */
    default void delete(String key) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " is read-only");
    }

    /** Deletes {@code keys} (a batch request where the store has one); missing keys are fine. */
    default void deleteAll(Collection<String> keys) throws IOException {
        for (String k : keys) {
            delete(k);
        }
    }

    /**
     * Whether conditional writes ({@link WriteCondition#IF_ABSENT}, {@link WriteCondition#ifMatch})
     * are enforced. A store that does not enforce them cannot order several writers; the MergeTree
     * table refuses to commit to it unless told it is the only writer.
     */
    default boolean supportsConditionalWrites() {
        return false;
    }

    /** A display name of {@code key} for messages, e.g. {@code s3://bucket/key}. */
    String describe(String key);

    @Override
    void close();

    /**
     * One page of listed objects, the common prefixes of a delimited listing (each ending with the
     * delimiter), and the token of the next page (null at the end).
     */
    record ListPage(
            List<ObjectSummary> objects,
            List<String> commonPrefixes,
            String nextContinuationToken) {
        /** A page without common prefixes. */
        public ListPage(List<ObjectSummary> objects, String nextContinuationToken) {
            this(objects, List.of(), nextContinuationToken);
        }
    }
}
