package io.github.s3mergetree.sink.mergetree.input;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DefaultKind;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The columnar fast path: the engine's {@link Block}s (e.g. from the S3 source), mapped onto the
 * table's columns by name and kept by reference in the writer's insert block until it is written
 * (no per-row work, no copy; the sort gathers the rows straight from these blocks). A block must
 * therefore not be modified after it was handed to the sink. A column must have the table column's
 * type (cast upstream otherwise); absent columns take their {@code DEFAULT} expression or the
 * type's default, computed per input block; unknown columns fail unless {@code
 * input_format_skip_unknown_fields = 1}.
 */
@PublicEvolving
public final class BlockInput implements SinkInput<Block> {
    private static final long serialVersionUID = 1L;

    private BlockInput() {}

    /** Blocks mapped by column name. */
    public static BlockInput byName() {
        return new BlockInput();
    }

    @Override
    public InputConverter<Block> createConverter(InputContext context) {
        return new Converter(context);
    }

    private static final class Converter implements InputConverter<Block> {
        private final InputContext ctx;
        private final List<String> names;
        private final List<DataType> types;
        private final Map<List<String>, Plan> plans = new HashMap<>();

        private record Plan(int[] sourceOf, ComputedColumns computed) {}

        Converter(InputContext ctx) {
            this.ctx = ctx;
            this.names = ctx.layout().columnNames();
            this.types = ctx.layout().columnTypes();
        }

        private Plan plan(Block in) {
            Plan p = plans.get(in.names());
            if (p != null) {
                return p;
            }
            String table = ctx.layout().tableName();
            for (String n : in.names()) {
                ColumnDefinition def = ctx.schema().column(n).orElse(null);
                if (def == null) {
                    if (!ctx.skipUnknownFields()) {
                        throw new IllegalArgumentException(
                                "Input column '"
                                        + n
                                        + "' names no column of table "
                                        + table
                                        + " (columns: "
                                        + names
                                        + "); set input_format_skip_unknown_fields = 1 to skip"
                                        + " it");
                    }
                } else if (def.defaultKind() == DefaultKind.MATERIALIZED
                        || def.defaultKind() == DefaultKind.ALIAS) {
                    throw new IllegalArgumentException(
                            "Cannot insert column "
                                    + n
                                    + " of table "
                                    + table
                                    + ", because it is "
                                    + def.defaultKind()
                                    + " column");
                }
            }
            int[] sourceOf = new int[names.size()];
            List<Integer> absent = new ArrayList<>();
            for (int c = 0; c < names.size(); c++) {
                int s = in.indexOf(names.get(c));
                sourceOf[c] = s;
                if (s < 0) {
                    absent.add(c);
                } else if (!in.types().get(s).equals(types.get(c))) {
                    throw new IllegalArgumentException(
                            "Input column "
                                    + names.get(c)
                                    + " has type "
                                    + in.types().get(s)
                                    + ", table "
                                    + table
                                    + " has "
                                    + types.get(c)
                                    + ": cast upstream or use RowDataInput");
                }
            }
            p = new Plan(sourceOf, new ComputedColumns(ctx, absent));
            plans.put(List.copyOf(in.names()), p);
            return p;
        }

        @Override
        public void append(Block in, Block target) {
            if (in.rows() == 0) {
                return;
            }
            Block complete = toBlock(in);
            target.appendRange(complete, 0, complete.rows());
        }

        @Override
        public boolean columnar() {
            return true;
        }

        @Override
        public Block toBlock(Block in) {
            int rows = in.rows();
            Plan p = plan(in);
            List<Column> cols = new ArrayList<>(names.size());
            for (int c = 0; c < names.size(); c++) {
                int s = p.sourceOf()[c];
                if (s >= 0) {
                    cols.add(in.column(s));
                } else {
                    Column d = Columns.create(types.get(c), rows);
                    for (int r = 0; r < rows; r++) {
                        Columns.appendDefault(types.get(c), d);
                    }
                    cols.add(d);
                }
            }
            return p.computed().apply(new Block(names, types, cols));
        }

        @Override
        public Block complete(Block block) {
            return block;
        }
    }
}
