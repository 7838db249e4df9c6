package io.github.s3mergetree.engine.types;

/**
 * {@code Decimal(P, S)}: a signed integer of value·10^S whose width follows from P (≤ 9: 32 bits, ≤
 * 18: 64, ≤ 38: 128, ≤ 76: 256), exactly as ClickHouse stores Decimal32/64/128/256.
 */
public final class DecimalType extends DataType {
    private final int precision;
    private final int scale;

    public DecimalType(int precision, int scale) {
        super(TypeKind.DECIMAL);
        if (precision < 1 || precision > 76) {
            throw new IllegalArgumentException(
                    "Decimal precision must be in [1, 76], got " + precision);
        }
        if (scale < 0 || scale > precision) {
            throw new IllegalArgumentException(
                    "Decimal scale must be in [0, precision=" + precision + "], got " + scale);
        }
        this.precision = precision;
        this.scale = scale;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    @Override
    protected String plainName() {
        return "Decimal(" + precision + ", " + scale + ")";
    }

    @Override
    public int fixedWidth() {
        if (precision <= 9) {
            return 4;
        } else if (precision <= 18) {
            return 8;
        } else if (precision <= 38) {
            return 16;
        }
        return 32;
    }

    @Override
    public PhysicalType physicalType() {
        return switch (fixedWidth()) {
            case 4 -> PhysicalType.INT;
            case 8 -> PhysicalType.LONG;
            default -> PhysicalType.FIXED_BYTES;
        };
    }
}
