package io.github.s3mergetree.source.s3.objects;

import io.github.s3mergetree.objectstore.KeyOrder;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Lists the objects matching a {@link GlobPattern}: ListObjectsV2 with pagination from each of the
 * pattern's independent literal prefixes, the prefixes in parallel on {@code threads} threads,
 * every page retried under the {@link RetryPolicy}.
 *
 * <p>Directory markers (keys ending in {@code /}) are skipped. The result is sorted by key in S3's
 * order ({@link KeyOrder}), which {@code ORDERED} discovery relies on.
 */
@org.apache.flink.annotation.Internal
public final class ObjectLister implements AutoCloseable {
    private final ObjectStoreClient client;
    private final RetryPolicy retry;
    private final RetryPolicy.Sleeper sleeper;
    private final S3SourceMetrics metrics;
    private final int pageSize;
    private final ExecutorService executor;

    public ObjectLister(
            ObjectStoreClient client,
            RetryPolicy retry,
            RetryPolicy.Sleeper sleeper,
            S3SourceMetrics metrics,
            int pageSize,
            int threads) {
        if (pageSize < 1 || pageSize > 1000) {
            throw new IllegalArgumentException(
                    "s3_list_object_keys_size must be in [1, 1000], got " + pageSize);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("list threads must be >= 1, got " + threads);
        }
        this.client = client;
        this.retry = retry;
        this.sleeper = sleeper;
        this.metrics = metrics;
        this.pageSize = pageSize;
        this.executor =
                Executors.newFixedThreadPool(
                        threads,
                        r -> {
                            Thread t = new Thread(r, "s3-source-list");
                            t.setDaemon(true);
                            return t;
                        });
    }

    /**
     * The matching objects with keys after {@code startAfter} (null: all), sorted by key in S3's
     * order.
     *
     * @throws IOException when a page cannot be listed after all retries
     */
    public List<ObjectSummary> list(GlobPattern pattern, String startAfter) throws IOException {
        long t0 = System.nanoTime();
        List<String> prefixes = pattern.listPrefixes();
        List<CompletableFuture<List<ObjectSummary>>> futures = new ArrayList<>();
        for (String prefix : prefixes) {
            if (startAfter != null
                    && !startAfter.isEmpty()
                    && !prefix.isEmpty()
                    && KeyOrder.compare(startAfter, prefix) > 0
                    && !startAfter.startsWith(prefix)) {
                continue; // every key under this prefix sorts before startAfter
            }
            futures.add(
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return listPrefix(pattern, prefix, startAfter);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            },
                            executor));
        }
        TreeMap<String, ObjectSummary> byKey = new TreeMap<>(KeyOrder.S3);
        try {
            for (CompletableFuture<List<ObjectSummary>> f : futures) {
                for (ObjectSummary o : f.join()) {
                    byKey.put(o.key(), o);
                }
            }
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw e;
        }
        List<ObjectSummary> out = new ArrayList<>(byKey.values());
        metrics.listed(out.size(), (System.nanoTime() - t0) / 1_000_000);
        return out;
    }

    private List<ObjectSummary> listPrefix(GlobPattern pattern, String prefix, String startAfter)
            throws IOException {
        List<ObjectSummary> out = new ArrayList<>();
        String token = null;
        do {
            final String t = token;
            ObjectStoreClient.ListPage page =
                    retry.call(
                            () -> {
                                metrics.listRequest();
                                return client.list(prefix, startAfter, t, pageSize);
                            },
                            metrics,
                            sleeper);
            for (ObjectSummary o : page.objects()) {
                if (!o.key().endsWith("/") && pattern.matches(o.key())) {
                    out.add(o);
                }
            }
            token = page.nextContinuationToken();
        } while (token != null);
        return out;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
