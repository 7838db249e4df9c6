package io.github.s3mergetree.engine.sort;

/** Compares two rows of one column (or of a key made of several columns) by index. */
@FunctionalInterface
public interface RowComparator {
    int compare(int a, int b);
}
