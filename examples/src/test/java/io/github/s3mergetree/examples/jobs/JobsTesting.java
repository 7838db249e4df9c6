package io.github.s3mergetree.examples.jobs;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/** Input files, table reads and chDB checks shared by the example jobs' tests. */
final class JobsTesting {
    static final String DDL =
            "CREATE TABLE events (id UInt64, day Date, name LowCardinality(String), amount"
                    + " Float64) ENGINE = MergeTree PARTITION BY toYYYYMM(day) ORDER BY (day, id)";
    static final String ACCESS_KEY = S3ProxyServer.ACCESS_KEY;
    static final String SECRET_KEY = S3ProxyServer.SECRET_KEY;

    private JobsTesting() {}

    /**
     * Writes {@code rows} rows with ids {@code firstId..} as a CSVWithNames object {@code key} in
     * {@code bucketDir}, atomically (a continuous source never sees half a file).
     */
    static void writeCsv(Path bucketDir, String key, long firstId, int rows) throws IOException {
        StringBuilder s = new StringBuilder("id,day,name,amount\n");
        for (long id = firstId; id < firstId + rows; id++) {
            s.append(
                    String.format(
                            Locale.ROOT,
                            "%d,2025-%02d-%02d,name-%d,%d.5%n",
                            id,
                            1 + id % 3,
                            1 + id % 28,
                            id % 7,
                            id % 100));
        }
        Path target = bucketDir.resolve(key);
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(bucketDir.getParent(), "upload-", ".tmp");
        Files.writeString(tmp, s, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The committed rows of the table: its active parts' rows, from the commit log. */
    static long committedRows(Path tableDir) throws IOException {
        if (!Files.isRegularFile(tableDir.resolve("s3mergetree_metadata/table.sql"))) {
            return 0;
        }
        long rows = 0;
        for (ActivePart p :
                MergeTreeTable.readActiveParts(
                        TableStore.local(tableDir.toAbsolutePath().toString()))) {
            rows += p.rows();
        }
        return rows;
    }

    static List<PartName> activeParts(Path tableDir) throws IOException {
        return MergeTreeTable.readActiveParts(
                        TableStore.local(tableDir.toAbsolutePath().toString()))
                .stream()
                .map(ActivePart::name)
                .toList();
    }

    /** Creates {@code events} in chDB with the table's DDL and attaches every active part. */
    static void attachAll(ChDb ch, Path tableDir) throws IOException {
        ch.execute(Files.readString(tableDir.resolve("s3mergetree_metadata/table.sql")));
        for (PartName p : activeParts(tableDir)) {
            ch.attachPart("events", tableDir.resolve(p.toString()));
        }
        ch.assertCheckTablePasses("events");
    }
}
