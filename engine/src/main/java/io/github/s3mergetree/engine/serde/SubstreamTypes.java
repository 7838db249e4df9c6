package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TupleType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The streams of a column that hold values, with the type of those values: the streams where
 * ClickHouse applies a column's specialised codecs ({@code Delta}, {@code T64}...) with parameters
 * from that type ({@code ISerialization::isSpecialCompressionAllowed}). The other streams of the
 * column (null maps, array sizes, LowCardinality indexes) get only the generic codecs.
 *
 * <p>Stream names are those {@link BulkSerialization#forColumn(String, DataType)} writes: a
 * Nullable's or an Array's values share the column's name, a Tuple element (and a Map's {@code
 * keys}/{@code values}) is {@code column%2Eelement}, a LowCardinality's dictionary is {@code
 * column.dict} with the dictionary's type ({@code Nullable(T)} for {@code
 * LowCardinality(Nullable(T))}, as in ClickHouse).
 */
public final class SubstreamTypes {
    private SubstreamTypes() {}

    /** The value streams of column {@code columnName} of {@code type}, in stream order. */
    public static Map<String, DataType> valueStreams(String columnName, DataType type) {
        Map<String, DataType> out = new LinkedHashMap<>();
        walk(type, StreamNames.escape(columnName), out);
        return out;
    }

    private static void walk(DataType type, String base, Map<String, DataType> out) {
        if (type instanceof LowCardinalityType lc) {
            out.put(base + ".dict", lc.nested());
        } else if (type instanceof NullableType n) {
            walk(n.nested(), base, out);
        } else if (type instanceof MapType m) {
            walk(m.storageType(), base, out);
        } else if (type instanceof ArrayType a) {
            walk(a.element(), base, out);
        } else if (type instanceof TupleType t) {
            for (int i = 0; i < t.elements().size(); i++) {
                walk(
                        t.elements().get(i),
                        base + "%2E" + StreamNames.escape(t.elementStreamName(i)),
                        out);
            }
        } else if (type.physicalType() == PhysicalType.STRING) {
            out.put(base, type);
        } else {
            out.put(base, type);
        }
    }
}
