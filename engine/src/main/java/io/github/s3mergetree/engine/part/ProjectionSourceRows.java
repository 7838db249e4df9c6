package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.GatheredFixedColumn;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows of a part being written, kept for its projections: the part's columns that any of the
 * table's projections reads, in the part's column order, appended as the part writer receives them
 * (whole blocks, or, in a vertical merge's second phase, one column at a time).
 *
 * <p>Why: ClickHouse rebuilds a merged part's projections from the merged rows when it cannot merge
 * the sources' projection parts ({@code MergeTask}); computing them from the rows the part holds
 * serves inserts and merges alike. Memory: these columns of the whole part are held until the part
 * is finished.
 */
final class ProjectionSourceRows {
    private final List<String> names = new ArrayList<>();
    private final List<DataType> types = new ArrayList<>();
    private final List<Column> columns = new ArrayList<>();

    ProjectionSourceRows(
            List<String> partNames, List<DataType> partTypes, List<PartProjection> projections) {
        Set<String> needed = new LinkedHashSet<>();
        for (PartProjection p : projections) {
            needed.addAll(p.sourceColumns());
        }
        if (needed.isEmpty() && !partNames.isEmpty()) {
            // e.g. SELECT count(): one column carries the row count
            needed.add(partNames.get(0));
        }
        for (int c = 0; c < partNames.size(); c++) {
            if (needed.remove(partNames.get(c))) {
                names.add(partNames.get(c));
                types.add(partTypes.get(c));
                columns.add(Columns.create(partTypes.get(c), 1024));
            }
        }
        if (!needed.isEmpty()) {
            throw new IllegalArgumentException(
                    "projections read columns the part does not have: " + needed);
        }
    }

    /** Appends the rows of those columns of {@code block} that projections read. */
    void append(Block block) {
        for (int b = 0; b < block.columnCount(); b++) {
            int c = names.indexOf(block.names().get(b));
            if (c >= 0) {
                Column src = block.column(b);
                if (src instanceof GatheredFixedColumn g) {
                    src = g.materialize(); // sorted lazily; fixed columns only append their own
                }
                columns.get(c).appendRange(src, 0, block.rows());
            }
        }
    }

    /** The rows received: every column must have received all of the part's rows. */
    Block rows() {
        int n = columns.isEmpty() ? 0 : columns.get(0).size();
        for (int c = 1; c < columns.size(); c++) {
            if (columns.get(c).size() != n) {
                throw new IllegalStateException(
                        "column "
                                + names.get(c)
                                + " has "
                                + columns.get(c).size()
                                + " rows for the projections, "
                                + names.get(0)
                                + " has "
                                + n);
            }
        }
        return new Block(names, types, columns);
    }
}
