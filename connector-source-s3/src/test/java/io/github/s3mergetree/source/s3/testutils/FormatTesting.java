package io.github.s3mergetree.source.s3.testutils;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.GetRateLimiter;
import io.github.s3mergetree.source.s3.objects.ObjectReader;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.flink.configuration.Configuration;

/** Runs formats outside Flink: a format context over any client, and readers drained to lists. */
public final class FormatTesting implements AutoCloseable {
    public final ObjectStoreClient client;
    public final S3SourceMetrics metrics = S3SourceMetrics.unregistered();
    public final ExecutorService executor = Executors.newFixedThreadPool(4);
    public final FormatContext context;

    public FormatTesting(ObjectStoreClient client, Configuration options) {
        this.client = client;
        ObjectReader reader =
                new ObjectReader(
                        client,
                        new RetryPolicy(5, 1, 10),
                        RetryPolicy.Sleeper.SYSTEM,
                        GetRateLimiter.unlimited(),
                        metrics,
                        executor,
                        options.get(S3SourceOptions.MAX_DOWNLOAD_THREADS),
                        (int) (long) options.get(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE));
        this.context = new FormatContext(reader, options, metrics);
    }

    public S3ObjectSplit wholeSplit(String key) throws IOException {
        var o = client.head(key);
        return S3ObjectSplit.of(key, o.etag(), o.size(), 0, o.size());
    }

    /** All records of a split. */
    public <T> List<PositionedRecord<T>> readAll(S3ObjectFormat<T> format, S3ObjectSplit split)
            throws IOException {
        List<PositionedRecord<T>> out = new ArrayList<>();
        try (FormatReader<T> r = format.createReader(context, split)) {
            List<PositionedRecord<T>> b;
            while ((b = r.nextBatch()) != null) {
                out.addAll(b);
            }
        }
        return out;
    }

    public static long rows(List<PositionedRecord<Block>> blocks) {
        long n = 0;
        for (PositionedRecord<Block> b : blocks) {
            n += b.record().rows();
        }
        return n;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        client.close();
    }
}
