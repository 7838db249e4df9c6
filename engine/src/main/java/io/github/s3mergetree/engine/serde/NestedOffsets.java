package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.MapType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * ClickHouse's Nested layout of columns with dotted names: an {@code Array} (or {@code Map}) column
 * named {@code n.a} belongs to the Nested structure {@code n}, and all such columns of one
 * structure share one stream of outer array sizes, {@code n.size0} (not {@code n%2Ea.size0}), under
 * the table setting {@code share_nested_offsets = 1} (the default; ClickHouse 18.16 always shares).
 * Only the outermost sizes are shared: {@code n.b Array(Array(T))} keeps its own {@code
 * n%2Eb.size1}, and arrays inside a Tuple keep their own streams. Because the stream is shared,
 * ClickHouse refuses an insert whose arrays of one structure have different sizes in a row ({@code
 * SIZES_OF_ARRAYS_DONT_MATCH}).
 *
 * <p>This mirrors {@code Nested::splitName}, {@code ISerialization::getFileNameForStream} and
 * {@code Nested::validateArraySizes}.
 */
public final class NestedOffsets {
    private NestedOffsets() {}

    /**
     * The Nested structure a column name belongs to: the part before the first dot, when the dot is
     * neither the first nor the last character ({@code Nested::splitName}); empty otherwise.
     */
    public static Optional<String> structureOf(String columnName) {
        int dot = columnName.indexOf('.');
        if (dot <= 0 || dot == columnName.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(columnName.substring(0, dot));
    }

    /**
     * The stream name of the shared outer sizes of column {@code columnName} of {@code type}, e.g.
     * {@code n.size0} for {@code n.a Array(String)}; empty when the column has no shared sizes (not
     * an Array or Map, or no Nested structure in its name).
     */
    public static Optional<String> sharedSizesStream(String columnName, DataType type) {
        if (!(type instanceof ArrayType) && !(type instanceof MapType)) {
            return Optional.empty();
        }
        return structureOf(columnName).map(s -> StreamNames.escape(s) + ".size0");
    }

    /** The stream name of a column's own outer sizes, e.g. {@code n%2Ea.size0}. */
    public static String ownSizesStream(String columnName) {
        return StreamNames.escape(columnName) + ".size0";
    }

    /**
     * An Array column of {@code type} whose rows have the sizes of {@code sizes}' rows, every
     * element the element type's default: how ClickHouse fills a column of a Nested structure that
     * an INSERT does not provide, so that it matches the structure's provided columns (a row of
     * {@code n.a = ['x', 'y']} gets {@code n.b = [0, 0]}).
     */
    public static ArrayColumn defaultsSizedLike(ArrayType type, ArrayColumn sizes) {
        ArrayColumn out = (ArrayColumn) Columns.create(type, sizes.size());
        for (int r = 0; r < sizes.size(); r++) {
            for (int k = sizes.length(r); k > 0; k--) {
                Columns.appendDefault(type.element(), out.elements());
            }
            out.endRow();
        }
        return out;
    }

    /**
     * Checks that the Array columns of each Nested structure have equal sizes in every row, as
     * ClickHouse does on INSERT ({@code Nested::validateArraySizes}): each Array column with a
     * dotted name is compared with the first such column of its structure.
     *
     * @param names the block's column names
     * @param types their types
     * @param columns the values
     * @param firstRow the number of the columns' first row in the whole block, for the message
     * @throws NestedSizesMismatchException naming both columns, the structure, the row and both
     *     sizes
     */
    public static void validateArraySizes(
            List<String> names, List<DataType> types, List<Column> columns, long firstRow) {
        for (int[] pair : equalSizePairs(names, types, c -> true)) {
            int f = pair[0];
            int i = pair[1];
            ArrayColumn a = (ArrayColumn) columns.get(f);
            ArrayColumn b = (ArrayColumn) columns.get(i);
            int rows = Math.min(a.size(), b.size());
            for (int r = 0; r < rows; r++) {
                if (a.length(r) != b.length(r)) {
                    throw new NestedSizesMismatchException(
                            names.get(f),
                            names.get(i),
                            structureOf(names.get(f)).orElseThrow(),
                            firstRow + r,
                            a.length(r),
                            b.length(r));
                }
            }
        }
    }

    /**
     * The pairs of columns whose sizes must be equal in every row ({@code
     * Nested::validateArraySizes}): each Array column with a dotted name that {@code included}
     * accepts, paired with the first such column of its structure, as {@code {first, other}}
     * indexes.
     *
     * @param included which column indexes take part (e.g. only those an input provides)
     */
    public static int[][] equalSizePairs(
            List<String> names, List<DataType> types, IntPredicate included) {
        Map<String, Integer> first = new HashMap<>();
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!included.test(i) || !(types.get(i) instanceof ArrayType)) {
                continue;
            }
            Optional<String> structure = structureOf(names.get(i));
            if (structure.isEmpty()) {
                continue;
            }
            Integer f = first.putIfAbsent(structure.get(), i);
            if (f != null) {
                pairs.add(new int[] {f, i});
            }
        }
        return pairs.toArray(new int[0][]);
    }
}
