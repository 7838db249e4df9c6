package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.sink.mergetree.storage.TableBuildCheck;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The ingest's table before anything is written to it: the DDL read from {@code --table-ddl-file}
 * and parsed, and the table path checked against it (a table of another DDL, a file, or a non-empty
 * directory or prefix that is not a table is refused with one line naming it).
 */
final class IngestTable {
    private IngestTable() {}

    /** The text of {@code --table-ddl-file}; {@link IllegalArgumentException} naming the file. */
    static String readDdl(Path ddlFile) throws IOException {
        try {
            return DdlFiles.read(ddlFile);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--table-ddl-file " + ddlFile + " does not exist");
        } catch (DdlParseException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The table, parsed (the only parse of the ingest's DDL in this process) and its layout
     * resolved; {@link IllegalArgumentException} naming the file if it is invalid.
     */
    static TableDefinition parseDdl(Path ddlFile, String ddl) {
        try {
            TableDefinition table = TableDefinition.parse(ddl);
            table.utcLayout();
            return table;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "the DDL in " + ddlFile + " is invalid: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a table path that is not a table of this DDL: a file, a table with another DDL, a
     * non-empty directory or prefix that is not a table. Objects only a delivery check writes (and
     * removes again: {@link DeliveryLedger#isCheckLeftover}) do not count, so a run killed during
     * its checks does not block the next one.
     */
    static void check(TableStorage storage, String ddl) throws IOException {
        if (storage.isLocal()) {
            Path table = Path.of(storage.describe());
            if (Files.exists(table) && !Files.isDirectory(table)) {
                throw new IllegalArgumentException(
                        "--table-path " + table + " exists and is not a directory");
            }
            if (!Files.exists(table)) {
                return;
            }
        }
        // wrong credentials, a missing bucket or an unreachable endpoint: one line in seconds,
        // not after the table store's retries (which outlast an outage of a running job)
        TableBuildCheck.check(storage);
        try (TableStore store = TableBuildCheck.quick(storage).openStore()) {
            Optional<String> existing = MergeTreeTable.storedDdl(store);
            if (existing.isPresent()) {
                if (!existing.get().strip().equals(ddl.strip())) {
                    throw new IllegalArgumentException(
                            "the table "
                                    + storage.describe()
                                    + " was created with a different DDL (see "
                                    + store.describe(TableKeys.DDL)
                                    + ")");
                }
            } else {
                // a delivery check's probe left by a killed run is no table content
                Optional<String> foreign =
                        store.list("").stream()
                                .map(o -> o.key())
                                .filter(k -> !DeliveryLedger.isCheckLeftover(k))
                                .findFirst();
                if (foreign.isPresent()) {
                    throw new IllegalArgumentException(
                            "--table-path "
                                    + storage.describe()
                                    + (storage.isLocal()
                                            ? " is a non-empty directory that is not a table"
                                                    + " directory"
                                            : " holds objects but is not a table (no "
                                                    + TableKeys.DDL
                                                    + ")")
                                    + ", e.g. "
                                    + store.describe(foreign.get()));
                }
            }
        }
    }
}
