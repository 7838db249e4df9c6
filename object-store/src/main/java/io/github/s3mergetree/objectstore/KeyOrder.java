package io.github.s3mergetree.objectstore;

import java.util.Comparator;

/**
 * The order in which S3 lists keys: by their UTF-8 bytes, which is the order of their Unicode code
 * points. Java's {@link String#compareTo} compares UTF-16 code units instead, which disagrees for
 * keys holding a character above U+FFFF (an emoji: surrogates D800–DFFF) and one in U+E000–U+FFFF
 * (a fullwidth letter, a private-use character): S3 lists {@code "\uFF21"} before {@code "😀"},
 * {@code compareTo} says the opposite. A listing that starts after a key ({@code start-after}) and
 * a filter of keys after it must use the same order, or keys are skipped.
 */
public final class KeyOrder {
    /** Keys in S3's listing order. */
    public static final Comparator<String> S3 = KeyOrder::compare;

    private KeyOrder() {}

    /** Compares two keys as S3 orders them (by code point, as their UTF-8 bytes compare). */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                // a surrogate (a code point above U+FFFF) sorts after every other BMP character
                boolean sx = Character.isSurrogate(x);
                boolean sy = Character.isSurrogate(y);
                if (sx != sy) {
                    return sx ? 1 : -1;
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }
}
