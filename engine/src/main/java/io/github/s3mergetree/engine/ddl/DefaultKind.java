package io.github.s3mergetree.engine.ddl;

/**
 * How a column gets its value when an insert does not provide it, as declared in {@code CREATE
 * TABLE}.
 */
public enum DefaultKind {
    /** No default expression: the type's default value (0, '', NULL, ...). */
    NONE,
    /** {@code DEFAULT expr}: computed when the insert omits the column; stored. */
    DEFAULT,
    /** {@code MATERIALIZED expr}: always computed, never inserted; stored. */
    MATERIALIZED,
    /** {@code ALIAS expr}: computed at read time; not stored in parts. */
    ALIAS
}
