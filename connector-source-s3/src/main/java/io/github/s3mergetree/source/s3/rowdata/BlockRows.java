package io.github.s3mergetree.source.s3.rowdata;

import io.github.s3mergetree.connector.types.ClickHouseTypes;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.reader.RecordExpander;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Emits the rows of each decoded {@link Block} as {@link RowData}: one {@link ColumnarRowData} per
 * row over Flink column vectors that read the block's own arrays (see {@link ColumnVectors}), all
 * rows of a block in one step (the split position moves past the block).
 *
 * <p>Field {@code i} of the produced {@link RowType} reads the block column of the same name, as
 * the Flink type the row type gives it; the readers are planned when this is created, so a column
 * that cannot be read as its Flink type fails the job's construction, not its run.
 */
@Internal
public final class BlockRows implements RecordExpander<Block, RowData> {
    private static final long serialVersionUID = 1L;

    private final TargetSchema schema;
    private final RowType rowType;
    private final String sessionZone;
    private final TypeInformation<RowData> producedType;
    private transient List<ColumnVectors.Reader> readers;
    private transient List<String> lastNames;
    private transient int[] columnOf;

    /**
     * Rows of {@code rowType} from blocks of {@code schema}.
     *
     * @param schema the ClickHouse columns the format decodes (the blocks' columns)
     * @param rowType the produced rows: a subset of the schema's columns by name, in any order,
     *     each as a Flink type {@link ColumnVectors} can read the column as
     * @param sessionZone the zone of date-times whose type names none (ClickHouse's {@code
     *     session_timezone})
     * @param producedType the type information of the rows (from the planner in SQL)
     * @throws IllegalArgumentException naming a field that is no column or a type that cannot be
     *     read
     */
    public BlockRows(
            TargetSchema schema,
            RowType rowType,
            ZoneId sessionZone,
            TypeInformation<RowData> producedType) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.sessionZone = sessionZone.getId();
        this.producedType = Objects.requireNonNull(producedType, "producedType");
        this.readers = plan();
    }

    /**
     * Rows typed from {@code schema} by {@link ClickHouseTypes#toFlink}, with type information from
     * {@code flink-table-runtime}.
     */
    public static BlockRows forSchema(TargetSchema schema, ZoneId sessionZone) {
        RowType rowType = rowTypeOf(schema);
        return new BlockRows(schema, rowType, sessionZone, InternalTypeInfo.of(rowType));
    }

    /** The Flink row type of {@code schema}'s columns. */
    public static RowType rowTypeOf(TargetSchema schema) {
        List<RowType.RowField> fields = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            DataType ch = schema.types().get(i);
            LogicalType t;
            try {
                t = ClickHouseTypes.toFlink(ch);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "column " + schema.names().get(i) + ": " + e.getMessage(), e);
            }
            fields.add(new RowType.RowField(schema.names().get(i), t));
        }
        return new RowType(false, fields);
    }

    private List<ColumnVectors.Reader> plan() {
        ZoneId zone = ZoneId.of(sessionZone);
        List<ColumnVectors.Reader> out = new ArrayList<>(rowType.getFieldCount());
        for (int f = 0; f < rowType.getFieldCount(); f++) {
            String name = rowType.getFieldNames().get(f);
            int c = schema.indexOf(name);
            if (c < 0) {
                throw new IllegalArgumentException(
                        "field "
                                + name
                                + " names no column of the source's schema ("
                                + schema
                                + ")");
            }
            out.add(ColumnVectors.plan(name, schema.types().get(c), rowType.getTypeAt(f), zone));
        }
        return out;
    }

    /** The produced row type. */
    public RowType rowType() {
        return rowType;
    }

    @Override
    public void emit(Block block, SourceOutput<RowData> output) {
        int rows = block.rows();
        if (rows == 0) {
            return;
        }
        if (readers == null) {
            readers = plan();
        }
        if (!block.names().equals(lastNames)) {
            columnOf = new int[rowType.getFieldCount()];
            for (int f = 0; f < columnOf.length; f++) {
                String name = rowType.getFieldNames().get(f);
                columnOf[f] = block.indexOf(name);
                if (columnOf[f] < 0) {
                    throw new IllegalStateException(
                            "decoded block has no column " + name + " (" + block.names() + ")");
                }
            }
            lastNames = block.names();
        }
        ColumnVector[] vectors = new ColumnVector[columnOf.length];
        for (int f = 0; f < vectors.length; f++) {
            vectors[f] = readers.get(f).vector(block.column(columnOf[f]));
        }
        VectorizedColumnBatch batch = new VectorizedColumnBatch(vectors);
        batch.setNumRows(rows);
        for (int r = 0; r < rows; r++) {
            output.collect(new ColumnarRowData(batch, r));
        }
    }

    @Override
    public TypeInformation<RowData> producedType() {
        return producedType;
    }
}
