package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.objectstore.StoreAccessProblems;
import java.io.IOException;
import org.apache.flink.annotation.Internal;

/**
 * What building the sink (and planning an {@code INSERT} into a {@code 'mergetree'} table) checks
 * of an {@code s3://} table before a job is submitted ({@code validate-on-build}, on by default, as
 * the source's): one listing request of the table's prefix with short timeouts and three attempts.
 * Wrong credentials, a missing bucket or an unreachable endpoint then fail in seconds with the same
 * one-line messages as the source's check, instead of failing the running job (on a cluster,
 * through its restart strategy). A directory table may exist on the TaskManagers only: it is not
 * checked here.
 */
@Internal
public final class TableBuildCheck {
    private TableBuildCheck() {}

    /** The check's refusal: one line naming the table and the problem. */
    public static final class Failed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Lists the table's prefix once.
     *
     * @throws Failed with one line naming the table and the problem
     */
    public static void check(TableStorage storage) {
        if (!(storage instanceof S3TableStorage s3)) {
            return;
        }
        ObjectStoreConfig quick = s3.config().forQuickCheck();
        String prefix = s3.prefix().isEmpty() ? "" : s3.prefix() + "/";
        try (ObjectStoreClient client = quick.createClient()) {
            quick.retryPolicy()
                    .call(
                            () -> client.list(prefix, null, null, 1),
                            RetryPolicy.RetryListener.NONE,
                            RetryPolicy.Sleeper.SYSTEM);
        } catch (IOException e) {
            throw new Failed(StoreAccessProblems.explainListing(e, storage.describe()), e);
        }
    }

    /**
     * {@code storage} for the reads made while a job is built or planned (the stored DDL): an
     * {@code s3://} table's store with {@link ObjectStoreConfig#forQuickCheck()}, so that an
     * unreachable store costs seconds there, not the job's retries.
     */
    public static TableStorage quick(TableStorage storage) {
        return storage instanceof S3TableStorage s3
                ? new S3TableStorage(s3.config().forQuickCheck(), s3.prefix())
                : storage;
    }
}
