package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.command.FailureMessages;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.ObjectLister;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.io.IOException;
import java.util.List;

/**
 * Lists the source's objects once in the client before a job is submitted, so that an unreachable
 * endpoint, wrong credentials or a glob that matches nothing fail in seconds with one clear line
 * (and nothing is written to the table), and so that progress can show the input's size.
 */
public final class ObjectPreflight {
    /** The matching objects and their total size. */
    public record Listing(List<ObjectSummary> objects, long totalBytes) {}

    private ObjectPreflight() {}

    /** Lists what {@code source} would read, with few retries. */
    public static Listing list(S3Source<Block> source) throws IOException {
        int retries = Math.min(3, source.options().get(S3SourceOptions.S3_RETRY_ATTEMPTS));
        try (ObjectStoreClient client = source.storeConfig().createClient();
                ObjectLister lister =
                        new ObjectLister(
                                client,
                                new RetryPolicy(Math.max(1, retries), 100, 1000),
                                RetryPolicy.Sleeper.SYSTEM,
                                new S3SourceMetrics(null),
                                source.options().get(S3SourceOptions.S3_LIST_OBJECT_KEYS_SIZE),
                                source.options().get(S3SourceOptions.LIST_THREADS))) {
            List<ObjectSummary> objects = lister.list(source.pattern(), null);
            long total = 0;
            for (ObjectSummary o : objects) {
                total += o.size();
            }
            return new Listing(objects, total);
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    "cannot list "
                            + source.storeConfig()
                            + ": "
                            + FailureMessages.innermostMessage(e),
                    e);
        }
    }
}
