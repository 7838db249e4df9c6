package io.github.s3mergetree.source.s3.format.parquet;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.convert.ValueConverter;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import io.github.s3mergetree.source.s3.format.ColumnValueConversions;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.Float16LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.UUIDLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Decodes one Parquet leaf column into a ClickHouse column, column-wise: definition and repetition
 * levels become Nullable null maps and (nested) Array offsets, values are appended through fast
 * paths for matching representations (ints, floats, strings, timestamps of every unit rescaled to
 * DateTime64's precision, dates, decimals of equal scale, UUIDs) and through {@link ValueConverter}
 * (ClickHouse's casting rules) otherwise, e.g. string → Enum8 by name.
 *
 * <p>Flat columns (a required or optional primitive outside lists) whose values are copied as they
 * are (INT32/INT64/FLOAT/DOUBLE/strings, timestamps of DateTime64's precision) and whose chunks use
 * PLAIN or dictionary encodings are decoded page by page in bulk by {@link ParquetFlatPageReader};
 * everything else value by value through parquet-mr's column reader.
 *
 * <p>Supported shapes: a primitive field (required / optional), lists (3-level LIST, legacy 2-level
 * lists and bare repeated fields) ↔ {@code Array(...)}, maps (MAP / key_value) ↔ {@code Map(K, V)},
 * structs ↔ {@code Tuple(...)} (fields by position), nested in any combination. A struct or map has
 * one decoder per leaf, all filling the same top-level column: each leaf appends into its Tuple
 * element, and the first leaf under a repeated level ends that Array's rows for all of them. A
 * shape that does not match the target type is refused with a message naming the column.
 */
final class ParquetColumnDecoder {
    private final String objectName;
    private final String columnName;
    private final ColumnDescriptor descriptor;
    private final PrimitiveType ptype;
    private final DataType targetType;
    private final int depth; // list levels
    private final int[] steps; // from the top column to the leaf: ARRAY_STEP or a Tuple element
    private final boolean[] ownsArray; // per list level: this leaf ends the rows of that Array
    private final int[] defOfRepeated; // index 1..depth
    private final int maxDef;
    private final DataType valueType; // leaf type without Nullable / LowCardinality
    private final boolean leafNullable;
    private final LeafSink sink;
    private final ValueConverter converter;
    private final VersionParser.ParsedVersion writerVersion;

    private ColumnReader reader;
    private final ParquetFlatPageReader.Kind flatKind; // null: value by value only
    private ParquetFlatPageReader flat;
    private boolean flatActive;
    private int flatReadStart; // size of the value column when the current bulk read started
    private long valuesLeft;
    private long rowInRowGroup;
    private int rowGroup;

    ParquetColumnDecoder(
            String objectName,
            MessageType fileSchema,
            ColumnDescriptor descriptor,
            String columnName,
            DataType targetType,
            ValueConverter converter,
            VersionParser.ParsedVersion writerVersion)
            throws ObjectFormatException {
        this.objectName = objectName;
        this.columnName = columnName;
        this.descriptor = descriptor;
        this.ptype = descriptor.getPrimitiveType();
        this.targetType = targetType;
        this.converter = converter;
        this.writerVersion = writerVersion;

        String[] path = descriptor.getPath();
        int rep = 0;
        int def = 0;
        int[] defRep = new int[descriptor.getMaxRepetitionLevel() + 1];
        int[] repPosition = new int[descriptor.getMaxRepetitionLevel() + 1];
        int[] childIndex = new int[path.length];
        java.util.List<Integer> stepList = new java.util.ArrayList<>();
        DataType element = targetType;
        GroupType parent = fileSchema;
        for (int j = 0; j < path.length; j++) {
            Type t = parent.getType(path[j]);
            childIndex[j] = parent.getFieldIndex(path[j]);
            element = stripLowCardinality(element);
            if (t.isRepetition(Type.Repetition.OPTIONAL)) {
                def++;
            } else if (t.isRepetition(Type.Repetition.REPEATED)) {
                def++;
                rep++;
                defRep[rep] = def;
                repPosition[rep] = j;
                if (element instanceof MapType m) {
                    element = m.storageType();
                }
                if (!(element instanceof ArrayType a)) {
                    throw mismatch(
                            "is a Parquet list or map (repeated field '"
                                    + t.getName()
                                    + "'), but the target type has no Array or Map there");
                }
                stepList.add(ARRAY_STEP);
                element = a.element();
                if (!t.isPrimitive() && isElementGroup(t.asGroupType(), parent)) {
                    element = tupleStep(t.asGroupType(), path[j + 1], element, stepList);
                }
            }
            if (!t.isPrimitive()) {
                GroupType g = t.asGroupType();
                if (!t.isRepetition(Type.Repetition.REPEATED) && !isWrapper(g)) {
                    element = tupleStep(g, path[j + 1], element, stepList);
                }
                parent = g;
            }
        }
        this.depth = rep;
        this.defOfRepeated = defRep;
        this.maxDef = descriptor.getMaxDefinitionLevel();
        this.steps = stepList.stream().mapToInt(Integer::intValue).toArray();
        this.ownsArray = new boolean[rep + 1];
        for (int level = 1; level <= rep; level++) {
            boolean first = true;
            for (int j = repPosition[level] + 1; j < path.length; j++) {
                first &= childIndex[j] == 0;
            }
            ownsArray[level] = first;
        }
        element = stripLowCardinality(element);
        if (element instanceof ArrayType
                || element instanceof MapType
                || element instanceof TupleType) {
            throw mismatch(
                    "is a Parquet primitive at '"
                            + String.join(".", path)
                            + "', but the target type has "
                            + element.name()
                            + " there");
        }
        DataType leaf = element instanceof LowCardinalityType lc ? lc.nested() : element;
        if (leaf instanceof NullableType n) {
            this.leafNullable = true;
            leaf = n.nested();
        } else {
            this.leafNullable = false;
        }
        if (leaf instanceof LowCardinalityType lc) {
            leaf = lc.nested();
        }
        this.valueType = leaf;
        this.sink = createSink();
        this.flatKind = flatKind();
    }

    private static final int ARRAY_STEP = -1;

    /**
     * What went wrong, with the causes parquet-mr hides ("could not decompress page" says nothing
     * of the codec's error): the chain's messages, a value error without the repeated table and row
     * prefix, binary bytes escaped.
     */
    static String causeMessage(Throwable e) {
        StringBuilder b = new StringBuilder();
        java.util.Set<Throwable> seen = new java.util.HashSet<>();
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            String m =
                    t instanceof io.github.s3mergetree.engine.convert.ConversionException ce
                            ? ce.problem()
                            : t.getMessage();
            if (m == null || m.isBlank() || b.indexOf(m) >= 0) {
                continue;
            }
            if (t instanceof ObjectFormatException && b.length() > 0) {
                break;
            }
            b.append(b.length() == 0 ? "" : ": ").append(m);
        }
        return ValueConverter.printable(b.length() == 0 ? e.toString() : b.toString());
    }

    /**
     * False forces value-by-value decoding, to compare both paths in tests and benchmarks (system
     * property {@code s3source.parquet.bulk}, default true).
     */
    static volatile boolean bulkDecoding =
            Boolean.parseBoolean(System.getProperty("s3source.parquet.bulk", "true"));

    /** Column chunks decoded in bulk so far (tests check that the bulk path ran). */
    static final java.util.concurrent.atomic.AtomicLong BULK_CHUNKS =
            new java.util.concurrent.atomic.AtomicLong();

    private static DataType stripLowCardinality(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    /** A LIST or MAP annotated group: its repeated child is the list, itself no Tuple. */
    private static boolean isWrapper(GroupType g) {
        LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
        return a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
                || a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation;
    }

    /**
     * Whether a repeated group is the list element itself (a struct, or a map's key_value) rather
     * than the middle level of a 3-level list, by Parquet's backward-compatibility rules.
     */
    private static boolean isElementGroup(GroupType repeated, GroupType parent) {
        return repeated.getFieldCount() > 1
                || !isWrapper(parent)
                || repeated.getName().equals("array")
                || repeated.getName().equals(parent.getName() + "_tuple");
    }

    /** A struct level: the target must be a Tuple of as many elements; selects the child's. */
    private DataType tupleStep(
            GroupType struct, String child, DataType target, java.util.List<Integer> stepList)
            throws ObjectFormatException {
        DataType t = stripLowCardinality(target);
        if (!(t instanceof TupleType tt) || tt.elements().size() != struct.getFieldCount()) {
            throw mismatch(
                    "is a Parquet struct '"
                            + struct.getName()
                            + "' of "
                            + struct.getFieldCount()
                            + " fields, but the target type has "
                            + t.name()
                            + " there (a Tuple of as many elements is needed)");
        }
        int k = struct.getFieldIndex(child);
        stepList.add(k);
        return tt.elements().get(k);
    }

    private ObjectFormatException mismatch(String problem) {
        return new ObjectFormatException(
                objectName
                        + ": column '"
                        + columnName
                        + "' ("
                        + describeParquetType()
                        + ") "
                        + problem
                        + " ("
                        + targetType.name()
                        + ")");
    }

    /**
     * The writer of a file as parquet-mr's column reader wants it (for its writer-specific
     * workarounds), from the footer's {@code created_by}; null for a writer it cannot parse. Parsed
     * once per object (a regular expression), not once per column.
     */
    static VersionParser.ParsedVersion writerVersion(String createdBy) {
        if (createdBy == null) {
            return null;
        }
        try {
            return VersionParser.parse(createdBy);
        } catch (Exception unknownWriter) {
            return null;
        }
    }

    private String describeParquetType() {
        LogicalTypeAnnotation a = ptype.getLogicalTypeAnnotation();
        return "Parquet " + ptype.getPrimitiveTypeName() + (a == null ? "" : " " + a);
    }

    /**
     * Starts reading row group {@code index}: in bulk ({@link ParquetFlatPageReader}) when the
     * column is flat, its representation is copied as is and the chunk's encodings allow it; value
     * by value through parquet-mr's column reader otherwise.
     */
    void startRowGroup(int index, PageReadStore store, BlockMetaData meta)
            throws ObjectFormatException {
        this.rowGroup = index;
        this.rowInRowGroup = 0;
        if (flatKind != null && bulkDecoding) {
            ColumnPath path = ColumnPath.get(descriptor.getPath());
            for (ColumnChunkMetaData chunk : meta.getColumns()) {
                if (chunk.getPath().equals(path)
                        && ParquetFlatPageReader.supports(chunk.getEncodings())) {
                    if (flat == null) {
                        flat = newFlatReader();
                    }
                    try {
                        flat.start(NonEmptyPageReader.of(store.getPageReader(descriptor)));
                    } catch (IOException | RuntimeException e) {
                        throw new ObjectFormatException(
                                objectName
                                        + ": row group "
                                        + index
                                        + ", column '"
                                        + columnName
                                        + "': cannot read the dictionary page: "
                                        + causeMessage(e),
                                e);
                    }
                    flatActive = true;
                    BULK_CHUNKS.incrementAndGet();
                    reader = null;
                    return;
                }
            }
        }
        flatActive = false;
        try {
            this.reader =
                    new ColumnReaderImpl(
                            descriptor,
                            // parquet-mr's reader fails on a page without values
                            NonEmptyPageReader.of(store.getPageReader(descriptor)),
                            new PrimitiveConverter() {},
                            writerVersion);
        } catch (RuntimeException e) {
            // the first page is read (and decompressed) here
            throw new ObjectFormatException(
                    objectName
                            + ": row group "
                            + index
                            + ", column '"
                            + columnName
                            + "': cannot read the first page: "
                            + causeMessage(e),
                    e);
        }
        this.valuesLeft = reader.getTotalValueCount();
    }

    /** Ends the decoding of this object's column: the bulk reader's arrays go back to the pool. */
    void release() {
        if (flat != null) {
            flat.release();
            flat = null;
            flatActive = false;
        }
    }

    /** A value of the bulk path that failed to convert, with its row in the row group. */
    private static final class RowFailure extends RuntimeException {
        final long row;

        RowFailure(long row, RuntimeException cause) {
            super(cause);
            this.row = row;
        }
    }

    private ParquetFlatPageReader newFlatReader() {
        if (flatKind == ParquetFlatPageReader.Kind.TIMESTAMP_TO_DATETIME) {
            return ParquetFlatPageReader.timestampToDateTime(
                    maxDef,
                    ColumnValueConversions.pow10(unitDigits(ptype.getLogicalTypeAnnotation())));
        }
        if (flatKind != ParquetFlatPageReader.Kind.ENUM8
                && flatKind != ParquetFlatPageReader.Kind.ENUM16) {
            return new ParquetFlatPageReader(flatKind, maxDef);
        }
        // anything but an element name (numbers as text, unknown names): ClickHouse's casting
        // rules or their error
        return new ParquetFlatPageReader(
                flatKind,
                maxDef,
                (EnumType) valueType,
                (c, bytes, off, len) -> {
                    // the row in the row group: one value per row was appended since the start
                    long row = rowInRowGroup + c.size() - flatReadStart;
                    try {
                        converter.append(
                                valueType,
                                c,
                                new String(bytes, off, len, StandardCharsets.UTF_8),
                                columnName,
                                row);
                    } catch (RuntimeException failure) {
                        throw new RowFailure(row, failure);
                    }
                });
    }

    /** The representation copied in bulk for a flat column, or null. */
    private ParquetFlatPageReader.Kind flatKind() {
        if (depth != 0 || maxDef > 1) {
            return null;
        }
        LogicalTypeAnnotation a = ptype.getLogicalTypeAnnotation();
        TypeKind k = valueType.kind();
        boolean signed = a instanceof IntLogicalTypeAnnotation i && i.isSigned();
        boolean unsigned = a instanceof IntLogicalTypeAnnotation i && !i.isSigned();
        int bits = a instanceof IntLogicalTypeAnnotation i ? i.getBitWidth() : 0;
        switch (ptype.getPrimitiveTypeName()) {
            case INT32 -> {
                if ((a == null || (signed && bits == 32)) && k == TypeKind.INT32
                        || unsigned && bits == 32 && k == TypeKind.UINT32) {
                    return ParquetFlatPageReader.Kind.INT32;
                }
                // the annotation bounds the values: stored narrowed, as value by value does
                if ((signed && k == TypeKind.INT16 || unsigned && k == TypeKind.UINT16)
                        && bits <= 16) {
                    return ParquetFlatPageReader.Kind.INT32_TO_INT16;
                }
                if ((signed && k == TypeKind.INT8 || unsigned && k == TypeKind.UINT8)
                        && bits <= 8) {
                    return ParquetFlatPageReader.Kind.INT32_TO_INT8;
                }
                if (a instanceof DateLogicalTypeAnnotation && k == TypeKind.DATE) {
                    return ParquetFlatPageReader.Kind.DATE;
                }
            }
            case INT64 -> {
                if ((a == null || (signed && bits == 64)) && k == TypeKind.INT64
                        || unsigned && bits == 64 && k == TypeKind.UINT64) {
                    return ParquetFlatPageReader.Kind.INT64;
                }
                if (a instanceof TimestampLogicalTypeAnnotation ts
                        && valueType instanceof DateTime64Type dt
                        && dt.precision()
                                == switch (ts.getUnit()) {
                                    case MILLIS -> 3;
                                    case MICROS -> 6;
                                    case NANOS -> 9;
                                }) {
                    return ParquetFlatPageReader.Kind.INT64;
                }
                if (a instanceof TimestampLogicalTypeAnnotation && k == TypeKind.DATETIME) {
                    return ParquetFlatPageReader.Kind.TIMESTAMP_TO_DATETIME;
                }
            }
            case FLOAT -> {
                if (k == TypeKind.FLOAT32) {
                    return ParquetFlatPageReader.Kind.FLOAT;
                }
            }
            case DOUBLE -> {
                if (k == TypeKind.FLOAT64) {
                    return ParquetFlatPageReader.Kind.DOUBLE;
                }
            }
            case BINARY -> {
                if ((a == null
                                || a instanceof StringLogicalTypeAnnotation
                                || a instanceof EnumLogicalTypeAnnotation
                                || a instanceof JsonLogicalTypeAnnotation)
                        && k == TypeKind.STRING) {
                    return ParquetFlatPageReader.Kind.BINARY;
                }
                if ((a == null
                                || a instanceof StringLogicalTypeAnnotation
                                || a instanceof EnumLogicalTypeAnnotation)
                        && valueType instanceof EnumType) {
                    return k == TypeKind.ENUM8
                            ? ParquetFlatPageReader.Kind.ENUM8
                            : ParquetFlatPageReader.Kind.ENUM16;
                }
            }
            default -> {}
        }
        return null;
    }

    /** Appends the next {@code rows} rows of the row group to {@code target}. */
    void read(int rows, Column target) throws ObjectFormatException {
        ArrayColumn[] arrays = new ArrayColumn[depth + 1];
        Column c = target;
        int lists = 0;
        for (int step : steps) {
            if (step == ARRAY_STEP) {
                arrays[++lists] = (ArrayColumn) c;
                c = arrays[lists].elements();
            } else {
                c = ((TupleColumn) c).element(step);
            }
        }
        NullableColumn nullable = leafNullable ? (NullableColumn) c : null;
        Column values = leafNullable ? nullable.nested() : c;
        if (flatActive) {
            try {
                flatReadStart = values.size();
                flat.read(rows, values, nullable, () -> Columns.appendDefault(valueType, values));
                rowInRowGroup += rows;
                return;
            } catch (RuntimeException e) {
                Throwable cause = e instanceof RowFailure ? e.getCause() : e;
                throw new ObjectFormatException(
                        objectName
                                + ": row group "
                                + rowGroup
                                + (e instanceof RowFailure f
                                        ? ", row " + f.row
                                        : e instanceof ParquetFlatPageReader.ValueOutOfRange v
                                                ? ", row "
                                                        + (rowInRowGroup + v.index - flatReadStart)
                                                : ", rows from " + rowInRowGroup)
                                + ", column '"
                                + columnName
                                + "' ("
                                + describeParquetType()
                                + " → "
                                + targetType.name()
                                + "): "
                                + causeMessage(cause),
                        cause);
            }
        }
        int started = 0;
        int open = 0; // list levels currently open
        try {
            while (valuesLeft > 0) {
                int r = reader.getCurrentRepetitionLevel();
                int d = reader.getCurrentDefinitionLevel();
                int level;
                if (r == 0) {
                    if (started == rows) {
                        break;
                    }
                    while (open > 0) {
                        endRow(arrays, open--);
                    }
                    started++;
                    rowInRowGroup++;
                    level = 1;
                    if (depth > 0) {
                        open = 1;
                    }
                } else {
                    while (open > r) {
                        endRow(arrays, open--);
                    }
                    level = r;
                }
                // descend: the list at 'level' is open; does it get an element?
                boolean leaf = depth == 0;
                while (!leaf) {
                    if (d < defOfRepeated[level]) {
                        break; // empty or null list at this level
                    }
                    if (level == depth) {
                        leaf = true;
                    } else {
                        level++;
                        open = level;
                    }
                }
                if (leaf) {
                    if (d == maxDef) {
                        sink.append(reader, values);
                        if (nullable != null) {
                            nullable.addNotNull();
                        }
                    } else if (nullable != null) {
                        nullable.addNull();
                    } else {
                        Columns.appendDefault(valueType, values);
                    }
                }
                reader.consume();
                valuesLeft--;
            }
            while (open > 0) {
                endRow(arrays, open--);
            }
        } catch (RuntimeException e) {
            throw new ObjectFormatException(
                    objectName
                            + ": row group "
                            + rowGroup
                            + ", row "
                            + Math.max(0, rowInRowGroup - 1)
                            + ", column '"
                            + columnName
                            + "' ("
                            + describeParquetType()
                            + " → "
                            + targetType.name()
                            + "): "
                            + causeMessage(e),
                    e);
        }
        if (started != rows) {
            throw new ObjectFormatException(
                    objectName
                            + ": row group "
                            + rowGroup
                            + ", column '"
                            + columnName
                            + "' has fewer rows than the row group ("
                            + started
                            + " of "
                            + rows
                            + " requested)");
        }
    }

    private void endRow(ArrayColumn[] arrays, int level) {
        if (ownsArray[level]) {
            arrays[level].endRow();
        }
    }

    /** Appends the current value of a reader to a column. */
    @FunctionalInterface
    private interface LeafSink {
        void append(ColumnReader r, Column c);
    }

    private LeafSink createSink() throws ObjectFormatException {
        LogicalTypeAnnotation a = ptype.getLogicalTypeAnnotation();
        TypeKind k = valueType.kind();
        switch (ptype.getPrimitiveTypeName()) {
            case BOOLEAN -> {
                if (k == TypeKind.BOOL || k == TypeKind.UINT8 || k == TypeKind.INT8) {
                    return (r, c) -> ((ByteColumn) c).add(r.getBoolean() ? (byte) 1 : 0);
                }
            }
            case INT32 -> {
                if (a == null || (a instanceof IntLogicalTypeAnnotation i && i.isSigned())) {
                    int bits = a == null ? 32 : ((IntLogicalTypeAnnotation) a).getBitWidth();
                    switch (k) {
                        case INT32:
                            return (r, c) -> ((IntColumn) c).add(r.getInteger());
                        case INT64:
                            return (r, c) -> ((LongColumn) c).add(r.getInteger());
                        case FLOAT64:
                            return (r, c) -> ((DoubleColumn) c).add(r.getInteger());
                        case INT16:
                            if (bits <= 16) {
                                return (r, c) -> ((ShortColumn) c).add((short) r.getInteger());
                            }
                            break;
                        case INT8:
                            if (bits <= 8) {
                                return (r, c) -> ((ByteColumn) c).add((byte) r.getInteger());
                            }
                            break;
                        default:
                            break;
                    }
                } else if (a instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
                    int bits = i.getBitWidth();
                    switch (k) {
                        case UINT32:
                            return (r, c) -> ((IntColumn) c).add(r.getInteger());
                        case UINT64:
                        case INT64:
                            return (r, c) -> ((LongColumn) c).add(r.getInteger() & 0xFFFFFFFFL);
                        case UINT16:
                            if (bits <= 16) {
                                return (r, c) -> ((ShortColumn) c).add((short) r.getInteger());
                            }
                            break;
                        case UINT8:
                            if (bits <= 8) {
                                return (r, c) -> ((ByteColumn) c).add((byte) r.getInteger());
                            }
                            break;
                        default:
                            break;
                    }
                } else if (a instanceof TimeLogicalTypeAnnotation tm
                        && tm.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS
                        && valueType instanceof DateTime64Type dt) {
                    // ClickHouse reads a TIME as a DateTime64 of its unit, on 1970-01-01
                    int p = dt.precision();
                    return (r, c) ->
                            ((LongColumn) c)
                                    .add(ColumnValueConversions.rescale(r.getInteger(), 3, p));
                } else if (a instanceof DateLogicalTypeAnnotation && k == TypeKind.DATE) {
                    return (r, c) -> ((ShortColumn) c).add(TemporalRanges.date(r.getInteger()));
                } else if (a instanceof DecimalLogicalTypeAnnotation d
                        && valueType instanceof DecimalType t
                        && t.scale() == d.getScale()
                        && t.precision() >= d.getPrecision()) {
                    if (t.fixedWidth() == 4) {
                        return (r, c) -> ((IntColumn) c).add(r.getInteger());
                    } else if (t.fixedWidth() == 8) {
                        return (r, c) -> ((LongColumn) c).add(r.getInteger());
                    }
                }
            }
            case INT64 -> {
                if (a == null || (a instanceof IntLogicalTypeAnnotation i && i.isSigned())) {
                    if (k == TypeKind.INT64) {
                        return (r, c) -> ((LongColumn) c).add(r.getLong());
                    } else if (k == TypeKind.FLOAT64) {
                        return (r, c) -> ((DoubleColumn) c).add(r.getLong());
                    }
                } else if (a instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
                    if (k == TypeKind.UINT64) {
                        return (r, c) -> ((LongColumn) c).add(r.getLong());
                    }
                } else if (a instanceof TimestampLogicalTypeAnnotation
                        || a instanceof TimeLogicalTypeAnnotation) {
                    int unitDigits = unitDigits(a);
                    if (valueType instanceof DateTime64Type dt) {
                        int p = dt.precision();
                        return (r, c) ->
                                ((LongColumn) c)
                                        .add(
                                                ColumnValueConversions.rescale(
                                                        r.getLong(), unitDigits, p));
                    } else if (k == TypeKind.DATETIME) {
                        return (r, c) ->
                                ((IntColumn) c)
                                        .add(
                                                dateTime(
                                                        ColumnValueConversions.rescale(
                                                                r.getLong(), unitDigits, 0)));
                    }
                } else if (a instanceof DecimalLogicalTypeAnnotation d
                        && valueType instanceof DecimalType t
                        && t.scale() == d.getScale()
                        && t.precision() >= d.getPrecision()
                        && t.fixedWidth() == 8) {
                    return (r, c) -> ((LongColumn) c).add(r.getLong());
                }
            }
            case INT96 -> {
                if (valueType instanceof DateTime64Type dt) {
                    int p = dt.precision();
                    return (r, c) -> ((LongColumn) c).add(int96Ticks(r.getBinary(), p));
                } else if (k == TypeKind.DATETIME) {
                    return (r, c) -> ((IntColumn) c).add(dateTime(int96Ticks(r.getBinary(), 0)));
                }
            }
            case FLOAT -> {
                if (k == TypeKind.FLOAT32) {
                    return (r, c) -> ((FloatColumn) c).add(r.getFloat());
                } else if (k == TypeKind.FLOAT64) {
                    return (r, c) -> ((DoubleColumn) c).add(r.getFloat());
                }
            }
            case DOUBLE -> {
                if (k == TypeKind.FLOAT64) {
                    return (r, c) -> ((DoubleColumn) c).add(r.getDouble());
                }
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                if (a instanceof Float16LogicalTypeAnnotation) {
                    // IEEE half floats, little-endian: ClickHouse reads them as Float32
                    if (k == TypeKind.FLOAT32) {
                        return (r, c) -> ((FloatColumn) c).add(half(r.getBinary()));
                    } else if (k == TypeKind.FLOAT64) {
                        return (r, c) -> ((DoubleColumn) c).add(half(r.getBinary()));
                    }
                    return genericSink(a, k);
                }
                // bytes stored as they are: strings, enums, JSON, BSON, INTERVAL (12 bytes, as
                // ClickHouse's FixedString(12)), fixed-length binaries without an annotation
                boolean textual =
                        !(a instanceof DecimalLogicalTypeAnnotation
                                || a instanceof UUIDLogicalTypeAnnotation);
                if (a instanceof UUIDLogicalTypeAnnotation && k == TypeKind.UUID) {
                    return (r, c) -> ((FixedBytesColumn) c).add(uuidBytes(r.getBinary()), 0);
                }
                if (textual
                        && k == TypeKind.STRING
                        && ptype.getPrimitiveTypeName()
                                == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                    // ClickHouse reads these as FixedString(n): into a String column its cast
                    // drops the trailing zero bytes
                    return (r, c) -> {
                        ByteBuffer bb = r.getBinary().toByteBuffer();
                        int from = bb.position();
                        int to = bb.limit();
                        while (to > from && bb.get(to - 1) == 0) {
                            to--;
                        }
                        StringColumn sc = (StringColumn) c;
                        byte[] buf = sc.reserveBytes(to - from);
                        bb.duplicate().position(from).get(buf, sc.totalBytes(), to - from);
                        sc.commitRow(to - from);
                    };
                }
                if (textual && k == TypeKind.STRING) {
                    return (r, c) -> {
                        Binary b = r.getBinary();
                        ByteBuffer bb = b.toByteBuffer();
                        if (bb.hasArray()) {
                            ((StringColumn) c)
                                    .add(
                                            bb.array(),
                                            bb.arrayOffset() + bb.position(),
                                            bb.remaining());
                        } else {
                            byte[] bytes = b.getBytes();
                            ((StringColumn) c).add(bytes, 0, bytes.length);
                        }
                    };
                }
                if (textual && valueType instanceof EnumType e) {
                    // names looked up as bytes: no String per value; anything else (numbers as
                    // text, unknown names) takes the generic path and its casting rules or error
                    java.util.Map<Binary, Integer> byName = new java.util.HashMap<>();
                    for (String name : e.names()) {
                        byName.put(Binary.fromString(name), e.valueOf(name));
                    }
                    LeafSink generic = genericSink(a, k);
                    boolean eight = k == TypeKind.ENUM8;
                    return (r, c) -> {
                        Integer v = byName.get(r.getBinary());
                        if (v == null) {
                            generic.append(r, c);
                        } else if (eight) {
                            ((ByteColumn) c).add((byte) v.intValue());
                        } else {
                            ((ShortColumn) c).add((short) v.intValue());
                        }
                    };
                }
                if (textual && k == TypeKind.FIXED_STRING) {
                    int n = ((FixedStringType) valueType).length();
                    return (r, c) -> {
                        byte[] bytes = r.getBinary().getBytes();
                        if (bytes.length > n) {
                            throw new IllegalArgumentException(
                                    "too large value for FixedString("
                                            + n
                                            + "): "
                                            + bytes.length
                                            + " bytes");
                        }
                        ((FixedBytesColumn) c).addPadded(bytes, 0, bytes.length);
                    };
                }
            }
        }
        return genericSink(a, k);
    }

    /** Generic path: a Java value through ClickHouse's casting rules. */
    private LeafSink genericSink(LogicalTypeAnnotation a, TypeKind k) throws ObjectFormatException {
        checkConvertible(a, k);
        return (r, c) ->
                converter.append(valueType, c, javaValue(r, a), columnName, rowInRowGroup - 1);
    }

    private void checkConvertible(LogicalTypeAnnotation a, TypeKind k)
            throws ObjectFormatException {
        switch (k) {
            case TUPLE, MAP, ARRAY, NULLABLE, LOW_CARDINALITY ->
                    throw mismatch("cannot be read as a " + k);
            default -> {}
        }
        if (ptype.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BOOLEAN
                && (k == TypeKind.STRING
                        || k == TypeKind.UUID
                        || k == TypeKind.DATETIME64
                        || k == TypeKind.DATE
                        || k == TypeKind.DATETIME)) {
            throw mismatch("cannot be converted");
        }
    }

    /** The current value as a Java object for {@link ValueConverter}. */
    private Object javaValue(ColumnReader r, LogicalTypeAnnotation a) {
        switch (ptype.getPrimitiveTypeName()) {
            case BOOLEAN:
                return r.getBoolean();
            case INT32:
                {
                    int v = r.getInteger();
                    if (a instanceof DateLogicalTypeAnnotation) {
                        return LocalDate.ofEpochDay(v);
                    } else if (a instanceof TimeLogicalTypeAnnotation) {
                        return Instant.ofEpochMilli(v);
                    } else if (a instanceof DecimalLogicalTypeAnnotation d) {
                        return BigDecimal.valueOf(v, d.getScale());
                    } else if (a instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
                        return v & 0xFFFFFFFFL;
                    }
                    return v;
                }
            case INT64:
                {
                    long v = r.getLong();
                    if (a instanceof TimestampLogicalTypeAnnotation
                            || a instanceof TimeLogicalTypeAnnotation) {
                        return switch (timeUnit(a)) {
                            case MILLIS -> Instant.ofEpochMilli(v);
                            case MICROS ->
                                    Instant.ofEpochSecond(
                                            Math.floorDiv(v, 1_000_000L),
                                            Math.floorMod(v, 1_000_000L) * 1000);
                            case NANOS ->
                                    Instant.ofEpochSecond(
                                            Math.floorDiv(v, 1_000_000_000L),
                                            Math.floorMod(v, 1_000_000_000L));
                        };
                    } else if (a instanceof DecimalLogicalTypeAnnotation d) {
                        return BigDecimal.valueOf(v, d.getScale());
                    } else if (a instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
                        return new BigInteger(Long.toUnsignedString(v));
                    }
                    return v;
                }
            case INT96:
                return int96Instant(r.getBinary());
            case FLOAT:
                return r.getFloat();
            case DOUBLE:
                return r.getDouble();
            default:
                {
                    Binary b = r.getBinary();
                    if (a instanceof Float16LogicalTypeAnnotation) {
                        return half(b);
                    } else if (a instanceof DecimalLogicalTypeAnnotation d) {
                        return new BigDecimal(new BigInteger(b.getBytes()), d.getScale());
                    } else if (a instanceof UUIDLogicalTypeAnnotation) {
                        ByteBuffer bb = ByteBuffer.wrap(b.getBytes());
                        return new UUID(bb.getLong(), bb.getLong());
                    }
                    // the bytes as they are: a String column stores them unchanged, other types
                    // parse them as text, and a message shows bytes that are not UTF-8 as \xNN
                    return b.getBytes();
                }
        }
    }

    private static LogicalTypeAnnotation.TimeUnit timeUnit(LogicalTypeAnnotation a) {
        return a instanceof TimestampLogicalTypeAnnotation ts
                ? ts.getUnit()
                : ((TimeLogicalTypeAnnotation) a).getUnit();
    }

    /** Decimal digits of a TIMESTAMP's or TIME's unit. */
    private static int unitDigits(LogicalTypeAnnotation a) {
        return switch (timeUnit(a)) {
            case MILLIS -> 3;
            case MICROS -> 6;
            case NANOS -> 9;
        };
    }

    /** A Parquet FLOAT16: two little-endian bytes of an IEEE 754 half-precision float. */
    static float half(Binary b) {
        ByteBuffer bb = b.toByteBuffer();
        int p = bb.position();
        return ColumnValueConversions.halfToFloat((bb.get(p) & 0xFF) | (bb.get(p + 1) & 0xFF) << 8);
    }

    /** IEEE 754 binary16 to binary32, exactly (every half is a float). */
    private static int dateTime(long seconds) {
        return TemporalRanges.dateTime(seconds);
    }

    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private static final long DAY_NANOS = 86_400_000_000_000L;

    /**
     * An INT96 timestamp (nanoseconds of the day, then a signed "julian" day whose days start at
     * midnight) as ClickHouse reads it: nanoseconds since the epoch that must fit in an Int64
     * (1677-09-21 to 2262-04-11); one that does not is refused, as ClickHouse refuses it ("INT96
     * timestamp out of range"), whatever the target type.
     */
    private static Instant int96Instant(Binary b) {
        ByteBuffer bb = b.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = bb.getLong();
        long julianDay = bb.getInt();
        if (nanosOfDay < -DAY_NANOS || nanosOfDay > DAY_NANOS) {
            throw new IllegalArgumentException(
                    "INT96 timestamp out of range: time of day component "
                            + nanosOfDay
                            + " is outside [0, "
                            + DAY_NANOS
                            + "]");
        }
        long nanos;
        try {
            nanos =
                    Math.addExact(
                            Math.multiplyExact(julianDay - JULIAN_EPOCH_DAY, DAY_NANOS),
                            nanosOfDay);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "INT96 timestamp out of range: julian day "
                            + julianDay
                            + ", time of day "
                            + nanosOfDay
                            + " ns (after 2262-04-11 or before 1677-09-21)");
        }
        return Instant.ofEpochSecond(
                Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    static long int96Ticks(Binary b, int precision) {
        Instant i = int96Instant(b);
        return Math.addExact(
                Math.multiplyExact(i.getEpochSecond(), ColumnValueConversions.pow10(precision)),
                i.getNano() / ColumnValueConversions.pow10(9 - precision));
    }

    /** Parquet UUIDs are 16 big-endian bytes; ClickHouse keeps two little-endian halves. */
    static byte[] uuidBytes(Binary b) {
        byte[] in = b.getBytes();
        byte[] out = new byte[16];
        for (int i = 0; i < 8; i++) {
            out[i] = in[7 - i];
            out[8 + i] = in[15 - i];
        }
        return out;
    }
}
