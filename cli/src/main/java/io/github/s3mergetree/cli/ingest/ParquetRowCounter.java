package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.format.Util;

/**
 * Counts the rows of Parquet objects from their footers (two small ranged GETs per object, 8 in
 * parallel), so that {@code ingest} can show a progress bar against a known total. Best effort: any
 * failure, or more than {@link #MAX_OBJECTS} objects, gives "unknown" and no bar — the job itself
 * reports bad objects properly.
 */
final class ParquetRowCounter {
    static final int MAX_OBJECTS = 2000;

    private ParquetRowCounter() {}

    static OptionalLong totalRows(ObjectStoreConfig store, List<ObjectSummary> objects) {
        if (objects.isEmpty() || objects.size() > MAX_OBJECTS) {
            return OptionalLong.empty();
        }
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        Math.min(8, objects.size()),
                        r -> {
                            Thread t = new Thread(r, "parquet-footers");
                            t.setDaemon(true);
                            return t;
                        });
        try (ObjectStoreClient client = store.createClient()) {
            List<Future<Long>> rows = new ArrayList<>();
            for (ObjectSummary o : objects) {
                rows.add(pool.submit(() -> rows(client, o)));
            }
            long total = 0;
            for (Future<Long> f : rows) {
                total += f.get();
            }
            return OptionalLong.of(total);
        } catch (Exception e) {
            return OptionalLong.empty();
        } finally {
            pool.shutdownNow();
        }
    }

    private static long rows(ObjectStoreClient client, ObjectSummary o) throws IOException {
        if (o.size() < 12) {
            throw new IOException("too small for Parquet: " + o.key());
        }
        byte[] tail = read(client, o, o.size() - 8, o.size());
        if (!"PAR1".equals(new String(tail, 4, 4, StandardCharsets.US_ASCII))) {
            throw new IOException("no Parquet magic at the end of " + o.key());
        }
        int footer = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (footer <= 0 || footer > o.size() - 12) {
            throw new IOException("bad Parquet footer length in " + o.key());
        }
        byte[] meta = read(client, o, o.size() - 8 - footer, o.size() - 8);
        return Util.readFileMetaData(new ByteArrayInputStream(meta)).getNum_rows();
    }

    private static byte[] read(ObjectStoreClient client, ObjectSummary o, long from, long to)
            throws IOException {
        try (InputStream in = client.get(o.key(), o.etag(), from, to)) {
            byte[] b = in.readNBytes((int) (to - from));
            if (b.length != to - from) {
                throw new IOException("short read of " + o.key());
            }
            return b;
        }
    }
}
