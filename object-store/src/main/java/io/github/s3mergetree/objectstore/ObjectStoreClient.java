package io.github.s3mergetree.objectstore;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The few object-store calls the source needs: one page of a listing, a HEAD and a ranged GET.
 *
 * <p>Why an interface: the same enumerator and readers run against S3 (via the AWS SDK) and against
 * local files ({@code file://}), and tests can inject failures. Implementations do not retry;
 * {@link RetryPolicy} does, so that every retry is counted in the metrics. Retryable failures (503,
 * 5xx, connection problems) are thrown as {@link RetryableStoreException}; a changed ETag as {@link
 * ObjectChangedException}.
 */
public interface ObjectStoreClient extends AutoCloseable {

    /** One page of a listing. {@code continuationToken} is null for the first page. */
    ListPage list(String prefix, String startAfter, String continuationToken, int maxKeys)
            throws IOException;

    /** The current metadata of {@code key}. */
    ObjectSummary head(String key) throws IOException;

    /**
     * The bytes {@code [start, endExclusive)} of {@code key}, which must still have {@code etag}
     * (empty: any). The caller closes the stream.
     */
    InputStream get(String key, String etag, long start, long endExclusive) throws IOException;

    /** A display name of {@code key} for messages, e.g. {@code s3://bucket/key}. */
    String describe(String key);

    @Override
    void close();

    /** One page of listed objects and the token of the next page (null at the end). */
    record ListPage(List<ObjectSummary> objects, String nextContinuationToken) {}
}
