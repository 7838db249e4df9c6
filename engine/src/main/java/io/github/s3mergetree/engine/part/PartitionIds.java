package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.LocalDate;
import java.util.List;

/**
 * Partition ids exactly as ClickHouse's {@code MergeTreePartition::getID} computes them: when every
 * key value is an integer field, the decimal values joined by {@code -} (a {@code Date} as {@code
 * YYYYMMDD}); otherwise the lowercase hex SipHash128 of the values' field tags and bytes.
 */
public final class PartitionIds {
    private static final int NULL = 0;
    private static final int UINT64 = 1;
    private static final int INT64 = 2;
    private static final int FLOAT64 = 3;
    private static final int UINT128 = 4;
    private static final int INT128 = 5;
    private static final int STRING = 16;
    private static final int ARRAY = 17;
    private static final int TUPLE = 18;
    private static final int DECIMAL32 = 19;
    private static final int DECIMAL64 = 20;
    private static final int DECIMAL128 = 21;
    private static final int DECIMAL256 = 23;
    private static final int UINT256 = 24;
    private static final int INT256 = 25;
    private static final int MAP = 26;

    private PartitionIds() {}

    /** The partition id of row {@code row} of the evaluated partition key columns. */
    public static String compute(List<DataType> types, List<Column> columns, int row) {
        if (types.isEmpty()) {
            return "all";
        }
        boolean allIntegers = true;
        for (int i = 0; i < types.size(); i++) {
            if (!isIntegerField(types.get(i), columns.get(i), row)) {
                allIntegers = false;
                break;
            }
        }
        if (allIntegers) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < types.size(); i++) {
                if (i > 0) {
                    s.append('-');
                }
                DataType t = plain(types.get(i));
                Column c = plainColumn(types.get(i), columns.get(i));
                if (t.kind() == TypeKind.DATE) {
                    LocalDate d = LocalDate.ofEpochDay(((ShortColumn) c).get(row) & 0xFFFF);
                    s.append(
                            String.format(
                                    "%04d%02d%02d",
                                    d.getYear(), d.getMonthValue(), d.getDayOfMonth()));
                } else {
                    s.append(integerText(t, c, row));
                }
            }
            return s.toString();
        }
        SipHash128 h = new SipHash128();
        for (int i = 0; i < types.size(); i++) {
            hashField(types.get(i), columns.get(i), row, h);
        }
        return SipHash128.hex(h.finish());
    }

    private static DataType plain(DataType t) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        return t instanceof NullableType n ? n.nested() : t;
    }

    private static Column plainColumn(DataType t, Column c) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        return t instanceof NullableType ? ((NullableColumn) c).nested() : c;
    }

    private static boolean isNull(DataType t, Column c, int row) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        return t instanceof NullableType && ((NullableColumn) c).isNull(row);
    }

    private static boolean isIntegerField(DataType type, Column c, int row) {
        if (isNull(type, c, row)) {
            return false;
        }
        return switch (plain(type).kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    BOOL,
                    DATE,
                    DATE32,
                    DATETIME,
                    ENUM8,
                    ENUM16 ->
                    true;
            default -> false;
        };
    }

    private static String integerText(DataType t, Column c, int row) {
        long v = integerValue(t, c, row);
        return t.isUnsigned() ? Long.toUnsignedString(v) : Long.toString(v);
    }

    private static long integerValue(DataType t, Column c, int row) {
        boolean u = t.isUnsigned();
        return switch (t.physicalType()) {
            case BYTE -> u ? ((ByteColumn) c).get(row) & 0xFF : ((ByteColumn) c).get(row);
            case SHORT -> u ? ((ShortColumn) c).get(row) & 0xFFFF : ((ShortColumn) c).get(row);
            case INT -> u ? ((IntColumn) c).get(row) & 0xFFFFFFFFL : ((IntColumn) c).get(row);
            case LONG -> ((LongColumn) c).get(row);
            default -> throw new IllegalArgumentException("not an integer type: " + t.name());
        };
    }

    private static void hashField(DataType type, Column c, int row, SipHash128 h) {
        if (isNull(type, c, row)) {
            h.updateByte(NULL);
            return;
        }
        DataType t = plain(type);
        c = plainColumn(type, c);
        switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, BOOL, DATE, DATETIME, IPV4 -> {
                h.updateByte(UINT64);
                h.updateLong(integerValue(t, c, row));
            }
            case INT8, INT16, INT32, INT64, DATE32, ENUM8, ENUM16 -> {
                h.updateByte(INT64);
                h.updateLong(integerValue(t, c, row));
            }
            case FLOAT32 -> {
                h.updateByte(FLOAT64);
                h.updateLong(Double.doubleToRawLongBits(((FloatColumn) c).get(row)));
            }
            case FLOAT64 -> {
                h.updateByte(FLOAT64);
                h.updateLong(Double.doubleToRawLongBits(((DoubleColumn) c).get(row)));
            }
            case UINT128, UUID -> fixed(UINT128, (FixedBytesColumn) c, row, h);
            case INT128 -> fixed(INT128, (FixedBytesColumn) c, row, h);
            case UINT256 -> fixed(UINT256, (FixedBytesColumn) c, row, h);
            case INT256 -> fixed(INT256, (FixedBytesColumn) c, row, h);
            case STRING -> {
                StringColumn s = (StringColumn) c;
                h.updateByte(STRING);
                h.updateLong(s.length(row));
                h.update(s.bytes(), s.start(row), s.length(row));
            }
            case FIXED_STRING -> {
                FixedBytesColumn f = (FixedBytesColumn) c;
                h.updateByte(STRING);
                h.updateLong(f.width());
                h.update(f.data(), row * f.width(), f.width());
            }
            case DECIMAL -> {
                int w = ((DecimalType) t).fixedWidth();
                int tag =
                        w == 4 ? DECIMAL32 : w == 8 ? DECIMAL64 : w == 16 ? DECIMAL128 : DECIMAL256;
                h.updateByte(tag);
                if (w == 4) {
                    int v = ((IntColumn) c).get(row);
                    for (int i = 0; i < 4; i++) {
                        h.updateByte(v >>> (8 * i));
                    }
                } else if (w == 8) {
                    h.updateLong(((LongColumn) c).get(row));
                } else {
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    h.update(f.data(), row * w, w);
                }
            }
            case DATETIME64 -> {
                h.updateByte(DECIMAL64);
                h.updateLong(((LongColumn) c).get(row));
            }
            case ARRAY, MAP -> {
                ArrayType at = t instanceof MapType m ? m.storageType() : (ArrayType) t;
                ArrayColumn ac = (ArrayColumn) c;
                h.updateByte(t.kind() == TypeKind.MAP ? MAP : ARRAY);
                h.updateLong(ac.length(row));
                for (int i = ac.start(row); i < ac.end(row); i++) {
                    hashField(at.element(), ac.elements(), i, h);
                }
            }
            case TUPLE -> {
                TupleType tt = (TupleType) t;
                TupleColumn tc = (TupleColumn) c;
                h.updateByte(TUPLE);
                h.updateLong(tc.arity());
                for (int i = 0; i < tc.arity(); i++) {
                    hashField(tt.elements().get(i), tc.element(i), row, h);
                }
            }
            default ->
                    throw new IllegalArgumentException(
                            "partition keys of type " + t.name() + " are not supported");
        }
    }

    private static void fixed(int tag, FixedBytesColumn f, int row, SipHash128 h) {
        h.updateByte(tag);
        h.update(f.data(), row * f.width(), f.width());
    }
}
