package io.github.s3mergetree.delivery.testing;

import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A table this project's engine writes for delivery tests: {@code (id UInt64, p UInt8, s String)}
 * partitioned by {@code p}, rows {@code id = i, p = i % 3, s = 'v' || i}, so that ClickHouse can
 * compute the same rows itself ({@link #referenceSelect}) for count and {@code RowsHash}
 * comparisons. {@link #upload} copies the table directory to an S3 prefix object by object, as the
 * S3 table store lays it out (ClickHouse's plain layout).
 */
public final class WrittenTable {
    public static final String COLUMNS = "(id UInt64, p UInt8, s String)";
    public static final String ENGINE = "ENGINE = MergeTree PARTITION BY p ORDER BY id";

    private final Path dir;
    private final MergeTreeTable table;
    private final String ddl;

    private WrittenTable(Path dir, MergeTreeTable table, String ddl) {
        this.dir = dir;
        this.table = table;
        this.ddl = ddl;
    }

    /**
     * A new table at {@code dir}; {@code settings} is appended to the DDL (e.g. a SETTINGS clause).
     */
    public static WrittenTable create(Path dir, String settings) throws IOException {
        return create(dir, COLUMNS, ENGINE, settings);
    }

    /**
     * A new table at {@code dir} with the engine clause {@code engine} (e.g. {@code ENGINE =
     * ReplicatedMergeTree('/p', '{replica}') PARTITION BY p ORDER BY id}) and {@code settings}.
     */
    public static WrittenTable withEngine(Path dir, String engine, String settings)
            throws IOException {
        return create(dir, COLUMNS, engine, settings);
    }

    /**
     * A new table at {@code dir} with {@code columns} (the columns of {@link #COLUMNS}, e.g. with
     * codecs); {@code settings} is appended to the DDL.
     */
    public static WrittenTable withColumns(Path dir, String columns, String settings)
            throws IOException {
        return create(dir, columns, ENGINE, settings);
    }

    /**
     * A new table at {@code dir} with {@code columns}, the engine clause {@code engine} and {@code
     * settings}.
     */
    public static WrittenTable create(Path dir, String columns, String engine, String settings)
            throws IOException {
        String ddl =
                "CREATE TABLE t "
                        + columns
                        + " "
                        + engine
                        + (settings.isEmpty() ? "" : " " + settings);
        TableLayout layout = TableLayouts.fromDdl(ddl);
        return new WrittenTable(
                dir,
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(
                                dir.toAbsolutePath().toString()),
                        layout,
                        Clock.systemUTC()),
                ddl);
    }

    public String ddl() {
        return ddl;
    }

    public TableSchema schema() {
        return TableSchema.parse(ddl);
    }

    public Path dir() {
        return dir;
    }

    public MergeTreeTable table() {
        return table;
    }

    /** Inserts rows {@code [from, from + n)} as one insert (one part per partition). */
    public List<PartName> insert(long from, int n) throws IOException {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "t",
                        table.layout().columnNames(),
                        table.layout().columnTypes(),
                        ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(i, (int) (i % 3), "v" + i);
        }
        return table.insert(b.build());
    }

    /** ClickHouse's own SELECT of rows {@code [from, from + n)}. */
    public static String referenceSelect(long from, long n) {
        return "SELECT toUInt64(number) AS id, toUInt8(number % 3) AS p, concat('v', toString(number)) AS s FROM numbers("
                + from
                + ", "
                + n
                + ")";
    }

    /**
     * Copies every file of the table directory to {@code bucket/prefix/...} (skipping what exists
     * with the same size).
     */
    public void upload(S3Client s3, String bucket, String prefix) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = dir.relativize(f).toString().replace('\\', '/');
                if (rel.startsWith("s3mergetree_metadata/lock")) {
                    continue;
                }
                s3.putObject(
                        b -> b.bucket(bucket).key(prefix + "/" + rel), RequestBody.fromFile(f));
            }
        }
    }
}
