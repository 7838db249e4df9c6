package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Functions of String and FixedString values found in real DEFAULT, MATERIALIZED and key clauses,
 * as ClickHouse computes them:
 *
 * <ul>
 *   <li>{@code lengthUTF8(s)} (aliases {@code CHAR_LENGTH}, {@code CHARACTER_LENGTH}): UInt64, the
 *       number of bytes that are not UTF-8 continuation bytes ({@code 10xxxxxx}), which is the
 *       number of code points of valid UTF-8 (ClickHouse's {@code UTF8::countCodePoints}; a
 *       FixedString's zero padding counts).
 *   <li>{@code xxHash32(s)}: UInt32, XXH32 with seed 0 of the value's bytes (a FixedString's whole
 *       width). Several arguments, and arguments of other types, are refused: their combination is
 *       not implemented.
 * </ul>
 */
final class StringFunctions {
    private StringFunctions() {}

    private static final XXHash32 XXH32 = XXHashFactory.fastestJavaInstance().hash32();

    static void register() {
        Functions.register(
                "lengthUTF8",
                false,
                StringFunctions::bindLengthUtf8,
                "CHAR_LENGTH",
                "CHARACTER_LENGTH");
        Functions.register("xxHash32", false, StringFunctions::bindXxHash32);
        Functions.register("lowerUTF8", false, (a, t, p) -> bindCaseUtf8(true, a, t, p));
        Functions.register("upperUTF8", false, (a, t, p) -> bindCaseUtf8(false, a, t, p));
    }

    private static void checkString(String fn, List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
        TypeKind k = types.get(0).kind();
        if (k != TypeKind.STRING && k != TypeKind.FIXED_STRING) {
            throw Functions.illegalType(types.get(0), 0, fn, pos);
        }
    }

    private static Functions.Bound bindLengthUtf8(List<Expr> args, List<DataType> types, int pos) {
        checkString("lengthUTF8", args, types, pos);
        return new Functions.Bound(
                DataTypes.UINT64,
                (cols, n, ctx) -> {
                    long[] out = new long[n];
                    forEachValue(
                            cols[0],
                            n,
                            (row, bytes, off, len) -> {
                                long points = 0;
                                for (int i = off; i < off + len; i++) {
                                    if ((bytes[i] & 0xC0) != 0x80) {
                                        points++;
                                    }
                                }
                                out[row] = points;
                            });
                    return Vectors.fromLongs(out, n, DataTypes.UINT64);
                });
    }

    private static Functions.Bound bindXxHash32(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() == 1
                && types.get(0).kind() != TypeKind.STRING
                && types.get(0).kind() != TypeKind.FIXED_STRING) {
            throw ExprException.unsupported(
                    "xxHash32 of " + types.get(0).name() + " is not supported (only of a String)",
                    pos);
        }
        if (args.size() > 1) {
            throw ExprException.unsupported(
                    "xxHash32 of several arguments is not supported (only of one String)", pos);
        }
        checkString("xxHash32", args, types, pos);
        return new Functions.Bound(
                DataTypes.UINT32,
                (cols, n, ctx) -> {
                    long[] out = new long[n];
                    forEachValue(
                            cols[0],
                            n,
                            (row, bytes, off, len) ->
                                    out[row] =
                                            Integer.toUnsignedLong(XXH32.hash(bytes, off, len, 0)));
                    return Vectors.fromLongs(out, n, DataTypes.UINT32);
                });
    }

    /** Receives one value's bytes. */
    @FunctionalInterface
    private interface ValueBytes {
        void accept(int row, byte[] bytes, int offset, int length);
    }

    private static void forEachValue(Column c, int n, ValueBytes f) {
        if (c instanceof StringColumn s) {
            byte[] bytes = s.bytes();
            for (int i = 0; i < n; i++) {
                f.accept(i, bytes, s.start(i), s.end(i) - s.start(i));
            }
        } else {
            FixedBytesColumn fixed = (FixedBytesColumn) c;
            int w = fixed.width();
            for (int i = 0; i < n; i++) {
                f.accept(i, fixed.data(), i * w, w);
            }
        }
    }

    /**
     * {@code lowerUTF8} / {@code upperUTF8} of a String: the full Unicode case mapping ClickHouse
     * applies (ICU's root locale: {@code ß} upper-cases to {@code SS}, {@code İ} lower-cases to
     * {@code i̇}), here Java's {@link String#toLowerCase(java.util.Locale)} with {@code
     * Locale.ROOT}, which implements the same mapping.
     */
    private static Functions.Bound bindCaseUtf8(
            boolean lower, List<Expr> args, List<DataType> types, int pos) {
        String fn = lower ? "lowerUTF8" : "upperUTF8";
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
        if (types.get(0).kind() != TypeKind.STRING) {
            throw Functions.illegalType(types.get(0), 0, fn, pos);
        }
        return new Functions.Bound(
                DataTypes.STRING_TYPE,
                (cols, n, ctx) -> {
                    StringColumn in = (StringColumn) cols[0];
                    StringColumn out = new StringColumn(n);
                    for (int i = 0; i < n; i++) {
                        String v = in.getString(i);
                        out.add(
                                lower
                                        ? v.toLowerCase(java.util.Locale.ROOT)
                                        : v.toUpperCase(java.util.Locale.ROOT));
                    }
                    return out;
                });
    }
}
