package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryableStoreException;
import io.github.s3mergetree.objectstore.StoreAccessProblems;
import io.github.s3mergetree.source.s3.objects.GlobPattern;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link S3SourceBuilder#build()} checks against the object store before a job is submitted
 * ({@code validate-on-build}, on by default): one listing page of the pattern's first prefixes,
 * with short timeouts and two retries. A wrong secret, a missing bucket or an unreachable endpoint
 * then fails the build in a second with a message that says which, instead of failing the running
 * job after its retries; a pattern that matches nothing is logged as a warning.
 *
 * <p>A local directory ({@code file://}) may exist on the TaskManagers only: its problems are
 * warnings.
 */
@Internal
final class BuildTimeCheck {
    private static final Logger LOG = LoggerFactory.getLogger(S3Source.class);

    /** Listing prefixes looked at (a pattern with {@code {1..1000}} has a thousand). */
    static final int MAX_PREFIXES = 8;

    private BuildTimeCheck() {}

    /**
     * Lists the first page of up to {@link #MAX_PREFIXES} prefixes of {@code pattern}.
     *
     * @return the number of matching objects seen, or -1 when the pages seen were not all of the
     *     listing (a match may come later)
     * @throws IllegalArgumentException naming the problem (S3 only)
     */
    static long check(
            ObjectStoreConfig store, GlobPattern pattern, String location, boolean continuous) {
        long matches = 0;
        boolean complete = true;
        try (ObjectStoreClient client = store.createClient()) {
            List<String> prefixes = pattern.listPrefixes();
            if (prefixes.size() > MAX_PREFIXES) {
                complete = false;
                prefixes = prefixes.subList(0, MAX_PREFIXES);
            }
            for (String prefix : prefixes) {
                ObjectStoreClient.ListPage page = listOnce(client, prefix);
                for (ObjectSummary o : page.objects()) {
                    if (!o.key().endsWith("/") && pattern.matches(o.key())) {
                        matches++;
                    }
                }
                if (page.nextContinuationToken() != null) {
                    complete = false;
                }
                if (matches > 0) {
                    return matches;
                }
            }
        } catch (IOException e) {
            if (store.isLocal()) {
                LOG.warn(
                        "Cannot list {} on this machine ({}); the TaskManagers must see it",
                        location,
                        e.getMessage());
                return -1;
            }
            throw new IllegalArgumentException(explain(e, location), e);
        }
        if (!complete) {
            return -1;
        }
        LOG.warn(
                "No object matches {}: the source {}",
                location,
                continuous ? "reads nothing until one arrives" : "will finish with no rows");
        return 0;
    }

    /** Attempts per listing call: a throttled or reset request is tried again, twice. */
    static final int ATTEMPTS = 3;

    private static ObjectStoreClient.ListPage listOnce(ObjectStoreClient client, String prefix)
            throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return client.list(prefix, null, null, 1000);
            } catch (RetryableStoreException e) {
                if (attempt >= ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static String explain(IOException e, String location) {
        return StoreAccessProblems.explainListing(e, location);
    }
}
