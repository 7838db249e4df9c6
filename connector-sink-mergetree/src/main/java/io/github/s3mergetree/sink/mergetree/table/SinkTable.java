package io.github.s3mergetree.sink.mergetree.table;

import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;

/**
 * The table of one sink as it travels with the sink's operators to the TaskManagers: its {@link
 * TableDefinition} when the DDL was given (else the DDL stored with the table, read where the table
 * is visible), its storage and the sink's options. The writer, the committer, the merge coordinator
 * and the delivery coordinator all take the table from here, so it is resolved ({@link
 * ResolvedTable}) at most once per copy: once where the sink is built, and once in each Flink task
 * that deserialized the sink (the definition re-parses its DDL text when it is read, and nowhere
 * else).
 */
@Internal
public final class SinkTable implements Serializable {
    @Serial private static final long serialVersionUID = 1L;

    private final TableDefinition definition;
    private final TableStorage storage;
    private final Configuration options;
    private transient ResolvedTable resolved;

    /**
     * The table of a sink.
     *
     * @param definition the table's definition (null: the DDL stored in {@code storage})
     * @param storage where the table lives
     * @param options the sink's options
     * @param resolved {@code definition} (or the stored DDL) already resolved with {@code options}
     *     where the sink was built (null: resolved at the first use)
     */
    public SinkTable(
            TableDefinition definition,
            TableStorage storage,
            Configuration options,
            ResolvedTable resolved) {
        this.definition = definition;
        this.storage = storage;
        this.options = options;
        this.resolved = resolved;
    }

    /** The table's definition as given to the sink; empty when the stored DDL is used. */
    public Optional<TableDefinition> definition() {
        return Optional.ofNullable(definition);
    }

    /** Where the table lives. */
    public TableStorage storage() {
        return storage;
    }

    /**
     * The table resolved with the sink's options, the first time from the definition or the DDL
     * stored with the table.
     *
     * @throws IOException if no DDL was given and the table has none stored, or it cannot be read
     */
    public synchronized ResolvedTable resolve() throws IOException {
        if (resolved == null) {
            resolved = ResolvedTable.resolve(definition, storage, options);
        }
        return resolved;
    }
}
