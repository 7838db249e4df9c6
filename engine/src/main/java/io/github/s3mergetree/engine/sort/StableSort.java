package io.github.s3mergetree.engine.sort;

/**
 * A stable merge sort of row indexes by a {@link RowComparator}: the permutation that orders an
 * insert block by its sorting key, rows with equal keys keeping their arrival order (as
 * ClickHouse's stable sort of insert blocks does, which ReplacingMergeTree without a version relies
 * on).
 */
public final class StableSort {
    private static final int INSERTION_THRESHOLD = 24;

    private StableSort() {}

    /** The permutation {@code p} such that rows {@code p[0], p[1], ...} are in order. */
    public static int[] sortedPermutation(int rows, RowComparator cmp) {
        int[] perm = new int[rows];
        for (int i = 0; i < rows; i++) {
            perm[i] = i;
        }
        if (rows < 2 || isSorted(perm, cmp)) {
            return perm;
        }
        int[] tmp = perm.clone();
        mergeSort(tmp, perm, 0, rows, cmp);
        return perm;
    }

    private static boolean isSorted(int[] perm, RowComparator cmp) {
        for (int i = 1; i < perm.length; i++) {
            if (cmp.compare(perm[i - 1], perm[i]) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Sorts src[lo, hi) into dst[lo, hi); src and dst start with equal content. */
    private static void mergeSort(int[] src, int[] dst, int lo, int hi, RowComparator cmp) {
        int n = hi - lo;
        if (n <= INSERTION_THRESHOLD) {
            for (int i = lo + 1; i < hi; i++) {
                int v = dst[i];
                int j = i - 1;
                while (j >= lo && cmp.compare(dst[j], v) > 0) {
                    dst[j + 1] = dst[j];
                    j--;
                }
                dst[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(dst, src, lo, mid, cmp);
        mergeSort(dst, src, mid, hi, cmp);
        if (cmp.compare(src[mid - 1], src[mid]) <= 0) {
            System.arraycopy(src, lo, dst, lo, n);
            return;
        }
        for (int i = lo, p = lo, q = mid; i < hi; i++) {
            if (q >= hi || (p < mid && cmp.compare(src[p], src[q]) <= 0)) {
                dst[i] = src[p++];
            } else {
                dst[i] = src[q++];
            }
        }
    }
}
