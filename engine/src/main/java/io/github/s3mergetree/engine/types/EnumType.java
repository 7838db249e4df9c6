package io.github.s3mergetree.engine.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code Enum8('a' = 1, ...)} / {@code Enum16(...)}: stored as Int8/Int16 of the value; names map
 * to values. The canonical name lists the elements ordered by value, as ClickHouse prints it.
 */
public final class EnumType extends DataType {
    private final List<String> names;
    private final int[] values;
    private final Map<String, Integer> valueByName = new HashMap<>();
    private final Map<Integer, String> nameByValue = new HashMap<>();

    /**
     * @param kind {@link TypeKind#ENUM8} or {@link TypeKind#ENUM16}
     * @param elements name → value, any order
     */
    public EnumType(TypeKind kind, Map<String, Integer> elements) {
        super(kind);
        if (kind != TypeKind.ENUM8 && kind != TypeKind.ENUM16) {
            throw new IllegalArgumentException("Enum kind must be ENUM8 or ENUM16, got " + kind);
        }
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("Enum must have at least one element");
        }
        int min = kind == TypeKind.ENUM8 ? Byte.MIN_VALUE : Short.MIN_VALUE;
        int max = kind == TypeKind.ENUM8 ? Byte.MAX_VALUE : Short.MAX_VALUE;
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(elements.entrySet());
        sorted.sort(Map.Entry.comparingByValue());
        List<String> n = new ArrayList<>();
        values = new int[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            String name = sorted.get(i).getKey();
            int value = sorted.get(i).getValue();
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "Enum value " + value + " of '" + name + "' is out of range for " + kind);
            }
            if (nameByValue.put(value, name) != null) {
                throw new IllegalArgumentException("Duplicate Enum value " + value);
            }
            valueByName.put(name, value);
            n.add(name);
            values[i] = value;
        }
        names = Collections.unmodifiableList(n);
    }

    /** Element names ordered by value. */
    public List<String> names() {
        return names;
    }

    /** The value of {@code name}, or null if the enum has no such element. */
    public Integer valueOf(String name) {
        return valueByName.get(name);
    }

    /** The name of {@code value}, or null if the enum has no such element. */
    public String nameOf(int value) {
        return nameByValue.get(value);
    }

    /** The smallest element value (ClickHouse's default value for the enum). */
    public int defaultValue() {
        return values[0];
    }

    @Override
    protected String plainName() {
        StringBuilder b = new StringBuilder(kind() == TypeKind.ENUM8 ? "Enum8(" : "Enum16(");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(quote(names.get(i))).append(" = ").append(values[i]);
        }
        return b.append(')').toString();
    }

    @Override
    public PhysicalType physicalType() {
        return kind() == TypeKind.ENUM8 ? PhysicalType.BYTE : PhysicalType.SHORT;
    }

    @Override
    public int fixedWidth() {
        return kind() == TypeKind.ENUM8 ? 1 : 2;
    }
}
