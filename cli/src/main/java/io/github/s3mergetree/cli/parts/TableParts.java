package io.github.s3mergetree.cli.parts;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.AttachStatements;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Read-only access to a table's active parts for {@code parts} and {@code check}, on S3 or in a
 * directory ({@code --table-path s3://bucket/prefix | file:///dir | /dir}, with the {@code --s3-*}
 * options of {@code ingest} for S3).
 *
 * <p>Unlike {@code MergeTreeTable.open}, nothing here writes to the table: no interrupted commit is
 * completed and no broken part is moved to {@code detached/}, so both commands can look at a table
 * a job is writing, and a damaged part stays where it is for the operator to see.
 */
public final class TableParts implements AutoCloseable {
    /** The options naming the table and how to reach it. */
    static final Set<String> OPTIONS =
            Set.of(
                    "--table-path",
                    "--s3-endpoint",
                    "--s3-region",
                    "--s3-access-key",
                    "--s3-secret-key");

    /** The flags of the table's S3 access. */
    static final Set<String> FLAGS = Set.of("--s3-path-style");

    /** What {@code system.parts} shows of one part, read from its own files. */
    record PartInfo(
            PartName name,
            String dir,
            long rows,
            long bytesOnDisk,
            long dataUncompressedBytes,
            long marks) {}

    final TableStorage storage;
    final TableStore store;
    final String ddl;

    private TableParts(TableStorage storage, TableStore store, String ddl) {
        this.storage = storage;
        this.store = store;
        this.ddl = ddl;
    }

    /** The table of the command line's {@code --table-path} and {@code --s3-*} options. */
    static TableParts open(Args a) throws IOException, UsageException {
        String path = a.required("--table-path");
        URI endpoint = null;
        if (a.has("--s3-endpoint")) {
            try {
                endpoint = new URI(a.required("--s3-endpoint"));
            } catch (java.net.URISyntaxException e) {
                throw new UsageException(
                        "--s3-endpoint is not a URL: '" + a.get("--s3-endpoint").orElse("") + "'");
            }
        }
        if (a.has("--s3-access-key") != a.has("--s3-secret-key")) {
            throw new UsageException("--s3-access-key and --s3-secret-key go together");
        }
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        TableStorage storage;
        try {
            if (!path.contains("://") && !path.startsWith("/")) {
                path = java.nio.file.Paths.get(path).toAbsolutePath().toString();
            }
            storage =
                    TableLocation.parse(
                            path,
                            new TableLocation.S3Settings(
                                    endpoint,
                                    a.get("--s3-region").orElse(null),
                                    a.has("--s3-path-style"),
                                    a.get("--s3-access-key").orElse(null),
                                    a.get("--s3-secret-key").orElse(null),
                                    d.connectTimeout(),
                                    d.requestTimeout()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--table-path: " + e.getMessage());
        }
        if (storage.isLocal()) {
            java.nio.file.Path dir = java.nio.file.Path.of(storage.describe());
            if (!java.nio.file.Files.exists(dir)) {
                throw new IllegalArgumentException("no such directory: " + dir);
            }
            if (!java.nio.file.Files.isDirectory(dir)) {
                throw new IllegalArgumentException("not a directory: " + dir);
            }
        }
        TableStore store = storage.openStore();
        Optional<String> ddl = MergeTreeTable.storedDdl(store);
        if (ddl.isEmpty()) {
            store.close();
            throw new IllegalArgumentException(
                    storage.describe()
                            + (storage.isLocal()
                                    ? " is not a table directory (it has no"
                                            + " s3mergetree_metadata/table.sql; give the"
                                            + " directory a MergeTree sink or the demo wrote)"
                                    : " is not a table (it has no"
                                            + " s3mergetree_metadata/table.sql; give the prefix"
                                            + " a MergeTree sink or the demo wrote)"));
        }
        return new TableParts(storage, store, ddl.get());
    }

    /** The active parts, ordered by partition and block number (from the commit log). */
    List<PartName> active() throws IOException {
        List<PartName> out = new ArrayList<>();
        for (ActivePart p : MergeTreeTable.readActiveParts(store)) {
            out.add(p.name());
        }
        return out;
    }

    /**
     * Reads one part's row count ({@code count.txt}) and sizes ({@code checksums.txt}): bytes on
     * disk are the listed files' sizes, uncompressed bytes the {@code .bin} files' uncompressed
     * sizes, marks the entries of the first column's mark file ({@code .mrk2}: 24 bytes each,
     * {@code .mrk}: 16), or -1 when there is none.
     */
    PartInfo info(PartName name) throws IOException {
        String dir = name.toString();
        Checksums c = PartReader.readChecksums(store, dir);
        String count =
                new String(
                                store.read(PartStorage.fileKey(dir, PartFiles.COUNT)),
                                StandardCharsets.US_ASCII)
                        .strip();
        long rows;
        try {
            rows = Long.parseLong(count);
        } catch (NumberFormatException e) {
            throw new IOException(
                    "part " + name + ": count.txt holds '" + count + "', not a row count");
        }
        long uncompressed = 0;
        long marks = -1;
        for (Map.Entry<String, Checksums.Entry> e : c.entries().entrySet()) {
            String file = e.getKey();
            if (file.endsWith(".bin")) {
                uncompressed += e.getValue().uncompressedSize();
            } else if (marks < 0 && file.endsWith(".mrk2")) {
                marks = e.getValue().fileSize() / 24;
            } else if (marks < 0 && file.endsWith(".mrk")) {
                marks = e.getValue().fileSize() / 16;
            }
        }
        return new PartInfo(name, dir, rows, c.totalBytes(), uncompressed, marks);
    }

    /**
     * For an S3 table: the statement that makes ClickHouse read it in place (the secret is shown as
     * a placeholder); empty for a directory.
     */
    Optional<String> attachStatement() {
        if (!(storage instanceof S3TableStorage s3)) {
            return Optional.empty();
        }
        return Optional.of(attachStatement(s3, ddl, "<secret key>"));
    }

    /** The in-place ATTACH statement of an S3 table with {@code secret} shown as given. */
    public static String attachStatement(S3TableStorage s3, String ddl, String secret) {
        String endpoint =
                s3.config().endpoint() == null
                        ? "https://"
                                + s3.config().bucket()
                                + ".s3."
                                + (s3.config().region() == null
                                        ? "us-east-1"
                                        : s3.config().region())
                                + ".amazonaws.com/"
                        : s3.config().endpoint().replaceAll("/+$", "")
                                + "/"
                                + s3.config().bucket()
                                + "/";
        String url = endpoint + (s3.prefix().isEmpty() ? "" : s3.prefix() + "/");
        return AttachStatements.s3Plain(
                ddl,
                url,
                s3.config().accessKeyId(),
                s3.config().accessKeyId() == null ? null : secret,
                AttachStatements.uuidOf(s3.describe()));
    }

    @Override
    public void close() {
        store.close();
    }
}
