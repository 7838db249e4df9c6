package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A table key (partition key, sorting key or primary key) as the ordered list of its elements: a
 * tuple key {@code (a, toDate(b))} has one element per tuple item, a single expression is a
 * one-element key and {@code tuple()} is the empty key.
 *
 * <p>Why flattened: ClickHouse stores, sorts and compares keys element by element ({@code
 * primary.idx} holds one value per element and granule, {@code partition.dat} one value per
 * element), so consumers need the elements and their types, not the tuple.
 */
public final class KeyExpression {

    /** The empty key ({@code tuple()}). */
    public static final KeyExpression EMPTY = new KeyExpression(List.of());

    private final List<Expr> elements;

    /** A key of the given elements (an empty list is the empty key). */
    public KeyExpression(List<Expr> elements) {
        this.elements = List.copyOf(elements);
    }

    /** The elements, in key order. */
    public List<Expr> elements() {
        return elements;
    }

    /** The element result types, in key order. */
    public List<DataType> types() {
        List<DataType> out = new ArrayList<>(elements.size());
        for (Expr e : elements) {
            out.add(e.resultType());
        }
        return Collections.unmodifiableList(out);
    }

    /** The names ClickHouse gives the element columns (e.g. {@code toDate(CreationDate)}). */
    public List<String> columnNames() {
        List<String> out = new ArrayList<>(elements.size());
        for (Expr e : elements) {
            out.add(e.columnName());
        }
        return Collections.unmodifiableList(out);
    }

    /** The table columns the key reads, in order of first appearance. */
    public Set<String> requiredColumns() {
        Set<String> r = new LinkedHashSet<>();
        for (Expr e : elements) {
            r.addAll(e.requiredColumns());
        }
        return Collections.unmodifiableSet(r);
    }

    /** Whether this is the empty key. */
    public boolean isEmpty() {
        return elements.isEmpty();
    }

    /** The number of elements. */
    public int size() {
        return elements.size();
    }

    /** Whether the elements of this key are the first elements of {@code other}. */
    public boolean isPrefixOf(KeyExpression other) {
        if (elements.size() > other.elements.size()) {
            return false;
        }
        for (int i = 0; i < elements.size(); i++) {
            if (!elements.get(i).equals(other.elements.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The key as SQL: {@code tuple()}, the one element, or {@code (e1, e2, ...)}. */
    public String toSql() {
        if (elements.isEmpty()) {
            return "tuple()";
        }
        if (elements.size() == 1) {
            Expr e = elements.get(0);
            String s = e.toSql();
            // a one-element key that is itself a tuple must stay distinguishable from its items
            if (e.resultType() instanceof io.github.s3mergetree.engine.types.TupleType) {
                return "tuple(" + s + ")";
            }
            return s;
        }
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(elements.get(i).toSql());
        }
        return b.append(')').toString();
    }

    /** Evaluates every element over {@code block}. */
    public List<Column> evaluate(Block block, EvaluationContext ctx) {
        List<Column> out = new ArrayList<>(elements.size());
        for (Expr e : elements) {
            out.add(e.evaluate(block, ctx));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyExpression k && k.elements.equals(elements);
    }

    @Override
    public int hashCode() {
        return elements.hashCode();
    }

    @Override
    public String toString() {
        return toSql();
    }
}
