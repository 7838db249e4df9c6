package io.github.s3mergetree.source.s3.format.hive;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ProjectableBlockFormat;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A block format whose columns named by a {@code key=value} directory of an object's path are
 * filled from the path instead of the object ({@code use_hive_partitioning}, on by default as in
 * ClickHouse 26): for {@code s3://b/t/region=north/x.parquet} every row of {@code x.parquet} has
 * {@code region = 'north'}, converted to the column's type ({@link HivePartitioning}), whether or
 * not the object has a column {@code region} (the path wins; the object's column is not read, as
 * ClickHouse's S3 storage reads it).
 *
 * <p>Per object: the columns taken from its path are those of the schema its path names; the other
 * columns are read from the object by the wrapped format, projected to them. An object whose path
 * names every column is refused, as ClickHouse refuses it.
 */
@Internal
public final class HivePartitionedBlockFormat implements S3ObjectFormat<Block> {
    private static final long serialVersionUID = 1L;

    private final ProjectableBlockFormat format;
    private final TargetSchema tableColumns;
    private transient Map<List<String>, S3ObjectFormat<Block>> projected;

    /**
     * @param format the format reading the objects' contents, of the columns to produce
     * @param tableColumns all columns of the table those columns are projected from (the same
     *     columns when nothing is projected away): an object whose path gives every produced column
     *     is read for its row count through one of the others, and refused only when its path gives
     *     every column of the table
     */
    public HivePartitionedBlockFormat(ProjectableBlockFormat format, TargetSchema tableColumns) {
        this.format = java.util.Objects.requireNonNull(format, "format");
        this.tableColumns = java.util.Objects.requireNonNull(tableColumns, "tableColumns");
    }

    /** The format reading the objects' contents (all columns). */
    public ProjectableBlockFormat format() {
        return format;
    }

    @Override
    public TypeInformation<Block> getProducedType() {
        return format.getProducedType();
    }

    @Override
    public boolean isSplittable(String key) {
        return format.isSplittable(key);
    }

    @Override
    public FormatReader<Block> createReader(FormatContext context, S3ObjectSplit split)
            throws IOException {
        TargetSchema schema = format.schema();
        String object = context.describe(split.key());
        Map<String, String> values = HivePartitioning.keysAndValues(split.key(), object);
        if (values.isEmpty()) {
            return format.createReader(context, split);
        }
        Column[] fromPath = new Column[schema.size()];
        List<Integer> fromObject = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            String name = schema.names().get(c);
            String value = values.get(name);
            if (value == null) {
                fromObject.add(c);
            } else {
                fromPath[c] =
                        HivePartitioning.convert(
                                value, schema.types().get(c), context.sessionZone(), object, name);
            }
        }
        if (fromObject.size() == schema.size()) {
            return format.createReader(context, split);
        }
        List<String> read = new ArrayList<>(fromObject.size());
        for (int c : fromObject) {
            read.add(schema.names().get(c));
        }
        if (fromObject.isEmpty()) {
            // every produced column from the path: the rows still come from the object
            for (String name : tableColumns.names()) {
                if (!values.containsKey(name)) {
                    read.add(name);
                    break;
                }
            }
            if (read.isEmpty()) {
                throw new ObjectFormatException(
                        object
                                + ": a hive partitioned file can't contain only partition columns"
                                + " (every column of "
                                + tableColumns
                                + " is a key=value directory of its path); read it with"
                                + " use_hive_partitioning = false");
            }
        }
        S3ObjectFormat<Block> reading = projectedFormat(read);
        return new Reader(reading.createReader(context, split), schema, fromPath, fromObject);
    }

    private S3ObjectFormat<Block> projectedFormat(List<String> names) {
        if (projected == null) {
            projected = new ConcurrentHashMap<>();
        }
        return projected.computeIfAbsent(
                List.copyOf(names),
                ns -> {
                    TargetSchema from = format.schema();
                    List<DataType> types = new ArrayList<>();
                    for (String n : ns) {
                        int i = from.indexOf(n);
                        types.add(
                                i >= 0
                                        ? from.types().get(i)
                                        : tableColumns.types().get(tableColumns.indexOf(n)));
                    }
                    return format.withSchema(TargetSchema.of(ns, types));
                });
    }

    /** The wrapped reader's blocks with the path's columns put in their places. */
    private static final class Reader implements FormatReader<Block> {
        private final FormatReader<Block> objectColumns;
        private final TargetSchema schema;
        private final Column[] fromPath;
        private final List<Integer> fromObject;

        Reader(
                FormatReader<Block> objectColumns,
                TargetSchema schema,
                Column[] fromPath,
                List<Integer> fromObject) {
            this.objectColumns = objectColumns;
            this.schema = schema;
            this.fromPath = fromPath;
            this.fromObject = fromObject;
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            List<PositionedRecord<Block>> batch = objectColumns.nextBatch();
            if (batch == null) {
                return null;
            }
            List<PositionedRecord<Block>> out = new ArrayList<>(batch.size());
            for (PositionedRecord<Block> r : batch) {
                out.add(new PositionedRecord<>(widen(r.record()), r.offset(), r.recordsToSkip()));
            }
            return out;
        }

        private Block widen(Block read) {
            int rows = read.rows();
            Column[] cols = new Column[schema.size()];
            for (int i = 0; i < fromObject.size(); i++) {
                cols[fromObject.get(i)] = read.column(i);
            }
            for (int c = 0; c < cols.length; c++) {
                if (cols[c] == null) {
                    Column one = fromPath[c];
                    Column all = one.newEmpty(rows);
                    for (int r = 0; r < rows; r++) {
                        all.appendFrom(one, 0);
                    }
                    cols[c] = all;
                }
            }
            return new Block(schema.names(), schema.types(), List.of(cols));
        }

        @Override
        public void close() throws IOException {
            objectColumns.close();
        }
    }
}
