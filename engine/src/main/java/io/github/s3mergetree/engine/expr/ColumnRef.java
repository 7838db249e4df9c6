package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import java.util.Objects;
import java.util.Set;

/**
 * A reference to a table column, typed by the column's declared type.
 *
 * <p>{@link #evaluate} returns the block's own column object (no copy, because keys that are plain
 * columns are the common case); callers must not modify it.
 */
public final class ColumnRef extends BaseExpr {
    private final String name;
    private final DataType type;

    /**
     * @param name the column name
     * @param type the column's declared type
     */
    public ColumnRef(String name, DataType type) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
    }

    /** The column name. */
    public String name() {
        return name;
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Set<String> requiredColumns() {
        return Set.of(name);
    }

    @Override
    public String toSql() {
        return SqlLexer.isPlainIdentifier(name) && !ExprParser.isKeyword(name)
                ? name
                : SqlLexer.backQuote(name);
    }

    @Override
    public String columnName() {
        return name;
    }

    @Override
    public Column evaluate(Block block, EvaluationContext ctx) {
        int i = block.indexOf(name);
        if (i < 0) {
            throw ExprException.evaluation("Column " + name + " is missing from the block");
        }
        if (!block.types().get(i).equals(type)) {
            throw ExprException.evaluation(
                    "Column "
                            + name
                            + " has type "
                            + block.types().get(i).name()
                            + " in the block, but the expression expects "
                            + type.name());
        }
        return block.column(i);
    }

    @Override
    public boolean isConstant() {
        return false;
    }
}
