package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opening a table: its layout in the store ({@code format_version.txt}, the DDL) created or checked
 * against the DDL given, publications interrupted by a crash completed, and the parts of a table
 * directory written before the commit log existed adopted as its first entry (ClickHouse's {@code
 * MergeTreeData::loadDataParts} for this project's log).
 */
final class TableOpener {
    private static final Logger LOG = LoggerFactory.getLogger(TableOpener.class);

    private TableOpener() {}

    /**
     * Refuses a store that does not enforce conditional writes, creates the table's layout if there
     * is none, and refuses a table created with another DDL.
     */
    static void checkOrCreate(TableStore store, TableLayout layout) throws IOException {
        if (!store.supportsConditionalWrites()) {
            throw new IOException(
                    store.location()
                            + " does not enforce conditional writes (If-None-Match / If-Match):"
                            + " the table's commit log cannot order its writers there");
        }
        Optional<byte[]> ddl = store.readIfExists(TableKeys.DDL);
        if (ddl.isEmpty()) {
            if (!store.exists(TableKeys.FORMAT_VERSION)) {
                store.put(TableKeys.FORMAT_VERSION, "1".getBytes(StandardCharsets.US_ASCII));
            }
            store.createIfAbsent(TableKeys.DDL, layout.ddl().getBytes(StandardCharsets.UTF_8));
            ddl = store.readIfExists(TableKeys.DDL);
        }
        String stored = new String(ddl.orElseThrow(), StandardCharsets.UTF_8);
        if (!stored.strip().equals(layout.ddl().strip())) {
            throw new IllegalStateException(
                    "table "
                            + store.location()
                            + " was created with a different DDL:\n"
                            + stored.strip()
                            + "\nnot:\n"
                            + layout.ddl().strip());
        }
    }

    /** See {@link MergeTreeTable#createIfAbsent}. */
    static String createIfAbsent(TableStore store, String ddl) throws IOException {
        TableSchema.parse(ddl);
        return createTableFiles(store, ddl);
    }

    /** {@link #createIfAbsent(TableStore, String)} of a parsed table, stored in canonical form. */
    static String createIfAbsent(TableStore store, TableDefinition table) throws IOException {
        return createTableFiles(store, table.storedDdl());
    }

    private static String createTableFiles(TableStore store, String ddl) throws IOException {
        if (!store.exists(TableKeys.FORMAT_VERSION)) {
            store.put(TableKeys.FORMAT_VERSION, "1".getBytes(StandardCharsets.US_ASCII));
        }
        store.createIfAbsent(TableKeys.DDL, ddl.getBytes(StandardCharsets.UTF_8));
        return storedDdl(store).orElseThrow();
    }

    /** The DDL stored with the table in {@code store}, if there is a table. */
    static Optional<String> storedDdl(TableStore store) throws IOException {
        return store.readIfExists(TableKeys.DDL).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /** Completes interrupted publications; adopts the parts of a table without a log. */
    static void recover(TableContext ctx) throws IOException {
        TableState s = ctx.refreshed();
        if (s.sequence() == 0) {
            adoptExistingParts(ctx);
            s = ctx.refreshed();
        }
        ctx.publishSinceSnapshot(s);
    }

    /** Parts of a directory written before the commit log (with checksums.txt) become entry 1. */
    private static void adoptExistingParts(TableContext ctx) throws IOException {
        TableStore store = ctx.store;
        List<CommittedPart> found = new ArrayList<>();
        for (String dir : store.listDirectories("")) {
            Optional<PartName> name = PartName.tryParse(dir);
            if (name.isEmpty() || !ctx.part(dir).hasChecksums()) {
                continue;
            }
            PartReader r = PartReader.open(store, dir);
            long uncompressed = 0;
            for (var e : r.checksums().entries().entrySet()) {
                if (e.getKey().endsWith(".bin")) {
                    uncompressed += e.getValue().uncompressedSize();
                }
            }
            found.add(
                    new CommittedPart(
                            name.get(),
                            null,
                            r.rows(),
                            r.checksums().totalBytes(),
                            uncompressed,
                            null));
        }
        if (found.isEmpty()) {
            return;
        }
        // covered parts of the old directory stay covered
        List<CommittedPart> active = new ArrayList<>();
        List<PartName> covered = new ArrayList<>();
        for (CommittedPart p : found) {
            boolean isCovered = false;
            for (CommittedPart q : found) {
                if (!q.name().equals(p.name()) && q.name().contains(p.name())) {
                    isCovered = true;
                }
            }
            if (isCovered) {
                covered.add(p.name());
            } else {
                active.add(p);
            }
        }
        ctx.lock.lock();
        try {
            TableState s = ctx.log.refresh();
            if (s.sequence() == 0) {
                Commit c =
                        new Commit(
                                1,
                                ctx.clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.ATTACH,
                                null,
                                active,
                                List.of(),
                                List.of(),
                                List.of(),
                                "parts found in "
                                        + store.location()
                                        + " when its commit log was created");
                if (ctx.log.append(c)) {
                    for (CommittedPart p : active) {
                        ctx.markPublished(p.name());
                    }
                    LOG.info(
                            "Adopted {} parts of {} into a new commit log ({} covered parts"
                                    + " left to cleanup)",
                            active.size(),
                            store.location(),
                            covered.size());
                }
            }
        } finally {
            ctx.lock.unlock();
        }
    }
}
