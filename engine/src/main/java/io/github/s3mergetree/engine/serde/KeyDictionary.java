package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.io.ByteArraySink;
import java.util.Arrays;

/**
 * An insertion-ordered set of byte strings (dictionary keys in their binary form) with
 * open-addressing lookup, used to dictionary-encode LowCardinality granules without per-row
 * objects.
 */
final class KeyDictionary {
    private final ByteArraySink blob = new ByteArraySink(4096);
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int[] hashes = new int[64];
    private int[] table = new int[128];
    private boolean[] indexed = new boolean[64];
    private int count;

    KeyDictionary() {
        Arrays.fill(table, -1);
    }

    int size() {
        return count;
    }

    /** The concatenated key bytes, in insertion order. */
    ByteArraySink blob() {
        return blob;
    }

    void clear() {
        blob.reset();
        count = 0;
        Arrays.fill(table, -1);
    }

    /** Appends a key without deduplication (placeholders such as the NULL slot). */
    int addUnique(byte[] b, int off, int len) {
        return insert(b, off, len, hash(b, off, len), false);
    }

    /** The index of the key, inserting it if absent. */
    int indexOf(byte[] b, int off, int len) {
        int h = hash(b, off, len);
        int mask = table.length - 1;
        for (int slot = h & mask; ; slot = (slot + 1) & mask) {
            int k = table[slot];
            if (k < 0) {
                return insert(b, off, len, h, true);
            }
            if (hashes[k] == h
                    && Arrays.equals(blob.buffer(), starts[k], ends[k], b, off, off + len)) {
                return k;
            }
        }
    }

    private int insert(byte[] b, int off, int len, int h, boolean index) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
            hashes = Arrays.copyOf(hashes, count * 2);
            indexed = Arrays.copyOf(indexed, count * 2);
        }
        int k = count++;
        starts[k] = blob.size();
        blob.write(b, off, len);
        ends[k] = blob.size();
        hashes[k] = h;
        indexed[k] = index;
        if (index) {
            if (count * 2 > table.length) {
                rehash();
            } else {
                place(k);
            }
        }
        return k;
    }

    private void place(int k) {
        int mask = table.length - 1;
        int slot = hashes[k] & mask;
        while (table[slot] >= 0) {
            slot = (slot + 1) & mask;
        }
        table[slot] = k;
    }

    private void rehash() {
        table = new int[table.length * 2];
        Arrays.fill(table, -1);
        for (int k = 0; k < count; k++) {
            if (indexed[k]) {
                place(k);
            }
        }
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x9747b28c ^ len;
        for (int i = off; i < off + len; i++) {
            h = (h ^ b[i]) * 0x5bd1e995;
            h ^= h >>> 15;
        }
        return h ^ (h >>> 13);
    }
}
