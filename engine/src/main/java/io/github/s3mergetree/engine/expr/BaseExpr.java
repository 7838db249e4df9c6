package io.github.s3mergetree.engine.expr;

/** Equality and printing shared by the expression nodes. */
abstract class BaseExpr implements Expr {

    @Override
    public final boolean equals(Object o) {
        return o instanceof Expr e
                && e.getClass() == getClass()
                && toSql().equals(e.toSql())
                && resultType().equals(e.resultType());
    }

    @Override
    public final int hashCode() {
        return toSql().hashCode();
    }

    @Override
    public final String toString() {
        return toSql();
    }
}
