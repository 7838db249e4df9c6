package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * The column-stream ("bulk") serialization of one column of a Wide part, bound to the column's
 * stream names: which {@code .bin} streams the column has and what each granule writes into them
 * (ClickHouse's {@code ISerialization::serializeBinaryBulkWithMultipleStreams}). Built once per
 * column and part; {@link #serialize} is called per granule.
 *
 * <p>Strings use the classic single-stream layout (VarUInt length + bytes), which every ClickHouse
 * version reads; LowCardinality writes per-granule keys (the Native-format layout), see {@link
 * LowCardinalitySerialization}.
 */
public abstract class BulkSerialization {
    /** The serialization of a column named {@code columnName} of {@code type}. */
    public static BulkSerialization forColumn(String columnName, DataType type) {
        return create(type, StreamNames.escape(columnName), 0, false, null, true);
    }

    /**
     * The serialization of the values of a set index granule (ClickHouse's {@code
     * MergeTreeIndexGranuleSet::serializeBinary}): a LowCardinality column's granules are flagged
     * {@code NeedUpdateDictionary}; other types are serialized as in a part's column streams.
     */
    public static BulkSerialization forIndexGranule(DataType type) {
        if (type instanceof LowCardinalityType lc) {
            return new LowCardinalitySerialization(lc, "x", true);
        }
        return forColumn("x", type);
    }

    /**
     * The serialization of a column of a part that declares, in {@code serialization.json}, the
     * 26.x String layout "with size stream" ({@code types_serialization_versions.string = 1}): a
     * {@code .size} stream of UInt64 lengths beside the bytes, also for Strings nested in Nullable,
     * Array, Map and Tuple. Only readers need it; the writer always uses the classic layout.
     */
    public static BulkSerialization forColumn(
            String columnName, DataType type, boolean stringsWithSizeStream) {
        return create(type, StreamNames.escape(columnName), 0, stringsWithSizeStream, null, true);
    }

    /**
     * The serialization of a column whose outermost array sizes live in the stream {@code
     * outerSizesStream} instead of its own {@code <column>.size0}: the sizes shared by the columns
     * of a Nested structure ({@code n.size0}, see {@link NestedOffsets}). Of the columns sharing
     * the stream, exactly one writes it ({@code writesOuterSizes}); the others neither list it in
     * {@link #streams()} nor write it, but read it. {@code outerSizesStream} null means the
     * column's own stream; it is ignored for columns that are not an Array or Map.
     */
    public static BulkSerialization forColumn(
            String columnName,
            DataType type,
            boolean stringsWithSizeStream,
            String outerSizesStream,
            boolean writesOuterSizes) {
        return create(
                type,
                StreamNames.escape(columnName),
                0,
                stringsWithSizeStream,
                outerSizesStream,
                writesOuterSizes);
    }

    static BulkSerialization create(DataType type, String base, int arrayDepth) {
        return create(type, base, arrayDepth, false, null, true);
    }

    private static BulkSerialization create(
            DataType type,
            String base,
            int arrayDepth,
            boolean sizeStream,
            String outerSizes,
            boolean writesOuterSizes) {
        if (type instanceof LowCardinalityType lc) {
            return new LowCardinalitySerialization(lc, base);
        }
        if (type instanceof NullableType n) {
            return new NullableSerialization(
                    base, create(n.nested(), base, arrayDepth, sizeStream, null, true));
        }
        if (type instanceof MapType m) {
            return create(
                    m.storageType(), base, arrayDepth, sizeStream, outerSizes, writesOuterSizes);
        }
        if (type instanceof ArrayType a) {
            boolean shared = outerSizes != null && arrayDepth == 0;
            return new ArraySerialization(
                    shared ? outerSizes : base + ".size" + arrayDepth,
                    !shared || writesOuterSizes,
                    create(a.element(), base, arrayDepth + 1, sizeStream, null, true));
        }
        if (type instanceof TupleType t) {
            List<BulkSerialization> elements = new ArrayList<>();
            for (int i = 0; i < t.elements().size(); i++) {
                String elementBase = base + "%2E" + StreamNames.escape(t.elementStreamName(i));
                elements.add(
                        create(
                                t.elements().get(i),
                                elementBase,
                                arrayDepth,
                                sizeStream,
                                null,
                                true));
            }
            return new TupleSerialization(elements);
        }
        if (type instanceof AggregateFunctionType af) {
            return new AggregateStateSerialization(base, StateFunctions.of(af));
        }
        if (type.physicalType() == io.github.s3mergetree.engine.types.PhysicalType.STRING) {
            return sizeStream
                    ? new SizeStreamStringSerialization(base)
                    : new StringSerialization(base);
        }
        return new FixedWidthSerialization(type, base);
    }

    /**
     * Whether a column of {@code type} is written as fixed-width little-endian values in one stream
     * (numbers, dates, UUIDs, FixedString; not Nullable, LowCardinality, arrays, maps, tuples or
     * strings).
     */
    public static boolean writesFixedWidth(DataType type) {
        return create(type, "c", 0) instanceof FixedWidthSerialization;
    }

    /** Appends this column's stream names in ClickHouse's enumeration order. */
    public abstract void enumerateStreams(List<String> out);

    /** The stream names, in order. */
    public final List<String> streams() {
        List<String> out = new ArrayList<>();
        enumerateStreams(out);
        return out;
    }

    /**
     * Writes what a part's streams carry before the first granule (LowCardinality's key version).
     */
    public void writePrefix(StreamSinks sinks) {}

    /** Writes rows {@code [from, to)} of {@code column} into the streams. */
    public abstract void serialize(Column column, int from, int to, StreamSinks sinks);

    /**
     * Reads {@code rows} rows from the streams and appends them to {@code column}. {@code state}
     * carries reader state across calls (LowCardinality dictionaries).
     */
    public abstract void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state);

    /** Reads what {@link #writePrefix} wrote. */
    public void readPrefix(StreamSources sources, DeserializationState state) {}
}
