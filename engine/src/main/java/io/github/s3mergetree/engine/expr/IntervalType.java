package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.Locale;

/**
 * ClickHouse's {@code Interval<Unit>} types ({@code IntervalDay}, {@code IntervalMonth}, ...): the
 * result of {@code INTERVAL n UNIT} and {@code toInterval<Unit>(n)}, an Int64 count of units that
 * only date arithmetic consumes ({@code ts + INTERVAL 30 DAY}, as TTL expressions use it).
 *
 * <p>Why a type of its own: {@code DateTime + 1} adds a second but {@code DateTime +
 * toIntervalDay(1)} adds a calendar day in the value's time zone, so the unit must travel with the
 * value's type. Intervals exist only inside expressions; no column has this type.
 */
public final class IntervalType extends DataType {

    /** The units ClickHouse knows, with their {@code toInterval*} function names. */
    public enum Unit {
        SECOND,
        MINUTE,
        HOUR,
        DAY,
        WEEK,
        MONTH,
        QUARTER,
        YEAR;

        /** {@code Day} for {@link #DAY}: the suffix of {@code toInterval<Unit>} and the type. */
        public String title() {
            String n = name().toLowerCase(Locale.ROOT);
            return Character.toUpperCase(n.charAt(0)) + n.substring(1);
        }

        /** Seconds in one unit for SECOND..WEEK; 0 for the calendar units. */
        long seconds() {
            return switch (this) {
                case SECOND -> 1;
                case MINUTE -> 60;
                case HOUR -> 3600;
                case DAY -> 86400;
                case WEEK -> 7 * 86400L;
                default -> 0;
            };
        }

        /** Months in one unit for MONTH, QUARTER, YEAR; 0 otherwise. */
        int months() {
            return switch (this) {
                case MONTH -> 1;
                case QUARTER -> 3;
                case YEAR -> 12;
                default -> 0;
            };
        }

        /** Days in one unit for DAY and WEEK; 0 otherwise. */
        int days() {
            return this == DAY ? 1 : this == WEEK ? 7 : 0;
        }
    }

    private final Unit unit;

    IntervalType(Unit unit) {
        super(TypeKind.INT64);
        this.unit = unit;
    }

    /** The unit. */
    public Unit unit() {
        return unit;
    }

    @Override
    protected String plainName() {
        return "Interval" + unit.title();
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.LONG;
    }

    @Override
    public int fixedWidth() {
        return 8;
    }
}
