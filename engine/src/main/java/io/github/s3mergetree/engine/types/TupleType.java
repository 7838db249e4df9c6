package io.github.s3mergetree.engine.types;

import java.util.List;
import java.util.Optional;

/**
 * {@code Tuple(T1, T2, ...)} or named {@code Tuple(a T1, b T2, ...)}: each element in its own
 * streams, named {@code <column>%2E<element name>} ({@code %2E1}, {@code %2E2}, ... when unnamed).
 */
public final class TupleType extends DataType {
    private final List<String> names;
    private final List<DataType> elements;

    /**
     * @param names element names, or null for an unnamed tuple
     * @param elements element types
     */
    public TupleType(List<String> names, List<DataType> elements) {
        super(TypeKind.TUPLE);
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("Tuple must have at least one element");
        }
        if (names != null && names.size() != elements.size()) {
            throw new IllegalArgumentException(
                    "Tuple has " + names.size() + " names for " + elements.size() + " elements");
        }
        this.names = names == null ? null : List.copyOf(names);
        this.elements = List.copyOf(elements);
    }

    public List<DataType> elements() {
        return elements;
    }

    /** The element names, if the tuple is named. */
    public Optional<List<String>> names() {
        return Optional.ofNullable(names);
    }

    /** The name used for element {@code i}'s streams: its name, or its 1-based position. */
    public String elementStreamName(int i) {
        return names == null ? Integer.toString(i + 1) : names.get(i);
    }

    @Override
    protected String plainName() {
        StringBuilder b = new StringBuilder("Tuple(");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            if (names != null) {
                b.append(names.get(i)).append(' ');
            }
            b.append(elements.get(i).name());
        }
        return b.append(')').toString();
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.TUPLE;
    }
}
