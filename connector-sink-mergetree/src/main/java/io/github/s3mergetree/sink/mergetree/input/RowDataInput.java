package io.github.s3mergetree.sink.mergetree.input;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.convert.ConversionException;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DefaultKind;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.serde.NestedSizesMismatchException;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink SQL rows ({@link RowData}) of a known {@link RowType}, mapped onto the table's columns by
 * field name, with ClickHouse's INSERT casting rules per column (see {@link ValueWriters}).
 *
 * <p>Table columns the rows do not have take their {@code DEFAULT} expression, else the type's
 * default; {@code MATERIALIZED} columns are always computed and may not be inserted, nor {@code
 * ALIAS} columns. A field that names no column fails the job unless {@code
 * input_format_skip_unknown_fields = 1}. Values are written column vector by column vector with
 * primitive accessors; only conversions that need parsing (a string into a UUID, ...) box.
 *
 * <p>The row kind is ignored: every row is inserted (MergeTree tables are append-only; use a
 * Replacing/Collapsing engine for updates).
 */
@PublicEvolving
public final class RowDataInput implements SinkInput<RowData> {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;

    private RowDataInput(RowType rowType) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
    }

    /** Rows of type {@code rowType}. */
    public static RowDataInput of(RowType rowType) {
        return new RowDataInput(rowType);
    }

    /** The input row type. */
    public RowType rowType() {
        return rowType;
    }

    @Override
    public InputConverter<RowData> createConverter(InputContext context) {
        return new Converter(rowType, context);
    }

    private static final class Converter implements InputConverter<RowData> {
        private final String table;
        private final RowType rowType;
        private final int[] fieldOf; // table column -> input field, or -1
        private final String[] names;
        private final DataType[] types;
        private final ValueWriters.ValueWriter[] writers;
        private final ValueWriters.Context ctx;
        private final Fields.Rows view = new Fields.Rows();
        private final ComputedColumns computed;
        private final int[] absent;

        /** {first provided column of a Nested structure, another provided one}: equal sizes. */
        private final int[][] nestedPairs;

        private long rowsSeen;

        Converter(RowType rowType, InputContext context) {
            this.rowType = rowType;
            this.table = context.layout().tableName();
            List<String> tableColumns = context.layout().columnNames();
            int n = tableColumns.size();
            this.names = tableColumns.toArray(new String[0]);
            this.types = context.layout().columnTypes().toArray(new DataType[0]);
            this.fieldOf = new int[n];
            this.writers = new ValueWriters.ValueWriter[n];
            this.ctx = new ValueWriters.Context(table, context.serverZone());
            List<String> fields = rowType.getFieldNames();
            for (int i = 0; i < fields.size(); i++) {
                String f = fields.get(i);
                ColumnDefinition def = context.schema().column(f).orElse(null);
                if (def == null) {
                    if (!context.skipUnknownFields()) {
                        throw new IllegalArgumentException(
                                "Input field '"
                                        + f
                                        + "' names no column of table "
                                        + table
                                        + " (columns: "
                                        + tableColumns
                                        + "); set input_format_skip_unknown_fields = 1 to skip"
                                        + " it");
                    }
                } else if (def.defaultKind() == DefaultKind.MATERIALIZED
                        || def.defaultKind() == DefaultKind.ALIAS) {
                    throw new IllegalArgumentException(
                            "Cannot insert column "
                                    + f
                                    + " of table "
                                    + table
                                    + ", because it is "
                                    + def.defaultKind()
                                    + " column");
                }
            }
            List<Integer> absentList = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                int field = fields.indexOf(names[c]);
                fieldOf[c] = field;
                if (field < 0) {
                    absentList.add(c);
                    continue;
                }
                LogicalType ft = rowType.getTypeAt(field);
                try {
                    writers[c] = ValueWriters.create(ft, types[c], ctx);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "Input field "
                                    + names[c]
                                    + " "
                                    + ft.asSummaryString()
                                    + " cannot be stored in column "
                                    + names[c]
                                    + " "
                                    + types[c]
                                    + " of table "
                                    + table
                                    + ": "
                                    + e.getMessage(),
                            e);
                }
            }
            this.absent = absentList.stream().mapToInt(Integer::intValue).toArray();
            this.computed = new ComputedColumns(context, absentList);
            this.nestedPairs =
                    context.layout().partFormat().shareNestedOffsets()
                            ? nestedPairs(absentList)
                            : new int[0][];
        }

        /**
         * The provided Array columns of each Nested structure paired with the structure's first
         * one: a record's arrays of one structure must have equal sizes (ClickHouse's {@code
         * Nested::validateArraySizes}), checked as it is appended so the error names the record.
         */
        private int[][] nestedPairs(List<Integer> absentList) {
            return NestedOffsets.equalSizePairs(
                    Arrays.asList(names), Arrays.asList(types), c -> !absentList.contains(c));
        }

        @Override
        public void append(RowData record, Block target) {
            view.of(record);
            int c = 0;
            try {
                ctx.row = rowsSeen;
                for (c = 0; c < writers.length; c++) {
                    ValueWriters.ValueWriter w = writers[c];
                    if (w != null) {
                        ctx.column = names[c];
                        w.write(view, fieldOf[c], target.column(c));
                    }
                }
                for (int a : absent) {
                    Columns.appendDefault(types[a], target.column(a));
                }
                for (int[] pair : nestedPairs) {
                    checkNestedSizes(pair, target);
                }
            } catch (ConversionException e) {
                throw new ConversionException(
                        table,
                        e.column(),
                        rowsSeen,
                        strip(e.getMessage()) + "; record: " + render(record));
            } catch (RuntimeException e) {
                throw new ConversionException(
                        table,
                        names[c],
                        rowsSeen,
                        "value "
                                + renderField(record, fieldOf[c])
                                + " cannot be stored as "
                                + types[c]
                                + ": "
                                + e.getMessage()
                                + "; record: "
                                + render(record));
            } finally {
                rowsSeen++;
            }
        }

        private void checkNestedSizes(int[] pair, Block target) {
            ArrayColumn a = (ArrayColumn) target.column(pair[0]);
            ArrayColumn b = (ArrayColumn) target.column(pair[1]);
            int row = a.size() - 1;
            if (a.length(row) != b.length(row)) {
                throw new ConversionException(
                        table,
                        names[pair[1]],
                        rowsSeen,
                        NestedSizesMismatchException.problem(
                                        names[pair[0]],
                                        names[pair[1]],
                                        NestedOffsets.structureOf(names[pair[0]]).orElseThrow())
                                + ": "
                                + a.length(row)
                                + " and "
                                + b.length(row)
                                + " elements");
            }
        }

        private static String strip(String message) {
            int i = message.indexOf(", row ");
            int j = i < 0 ? -1 : message.indexOf(": ", i);
            return j < 0 ? message : message.substring(j + 2);
        }

        private String renderField(RowData r, int field) {
            if (field < 0 || r.isNullAt(field)) {
                return "NULL";
            }
            Object v = RowData.createFieldGetter(rowType.getTypeAt(field), field).getFieldOrNull(r);
            return renderValue(rowType.getTypeAt(field), v);
        }

        /** A field's value for messages: arrays element by element (at most 200 characters). */
        private static String renderValue(LogicalType type, Object v) {
            if (v instanceof ArrayData a
                    && type instanceof org.apache.flink.table.types.logical.ArrayType at) {
                ArrayData.ElementGetter element =
                        ArrayData.createElementGetter(at.getElementType());
                StringBuilder s = new StringBuilder("[");
                for (int i = 0; i < a.size(); i++) {
                    if (s.length() > 200) {
                        s.append(", ...");
                        break;
                    }
                    s.append(i > 0 ? ", " : "")
                            .append(
                                    renderValue(
                                            at.getElementType(), element.getElementOrNull(a, i)));
                }
                return s.append(']').toString();
            }
            return v instanceof byte[] b
                    ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
                    : String.valueOf(v);
        }

        private String render(RowData r) {
            StringBuilder s = new StringBuilder(r.getRowKind().shortString()).append('(');
            for (int i = 0; i < rowType.getFieldCount() && s.length() < 500; i++) {
                s.append(i > 0 ? ", " : "")
                        .append(rowType.getFieldNames().get(i))
                        .append('=')
                        .append(renderField(r, i));
            }
            return s.append(')').toString();
        }

        @Override
        public Block complete(Block block) {
            return computed.apply(block);
        }
    }
}
