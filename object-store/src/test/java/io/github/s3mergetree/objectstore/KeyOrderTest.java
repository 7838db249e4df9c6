package io.github.s3mergetree.objectstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyOrderTest {
    /** S3 orders keys by their UTF-8 bytes: KeyOrder agrees on every pair of random keys. */
    @Test
    void ordersKeysByTheirUtf8Bytes() {
        int[] pool = {
            'a', 'b', 'z', '/', '%', '+', ' ', 0x7f, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xff21,
            0xffff, 0x10000, 0x1f600, 0x10ffff
        };
        Random r = new Random(16);
        for (int n = 0; n < 20_000; n++) {
            String a = randomKey(r, pool);
            String b = randomKey(r, pool);
            int expected =
                    Integer.signum(
                            Arrays.compareUnsigned(
                                    a.getBytes(StandardCharsets.UTF_8),
                                    b.getBytes(StandardCharsets.UTF_8)));
            assertThat(Integer.signum(KeyOrder.compare(a, b)))
                    .as("%s vs %s", a, b)
                    .isEqualTo(expected);
        }
    }

    @Test
    void aFullwidthLetterSortsBeforeAnEmojiUnlikeCompareTo() {
        String fullwidth = "\uff21";
        String emoji = "\ud83d\ude00";
        assertThat(KeyOrder.compare(fullwidth, emoji)).isNegative();
        assertThat(fullwidth.compareTo(emoji)).isPositive();
        assertThat(KeyOrder.compare("a", "ab")).isNegative();
        assertThat(KeyOrder.compare("ab", "ab")).isZero();
    }

    private static String randomKey(Random r, int[] pool) {
        StringBuilder b = new StringBuilder();
        int len = r.nextInt(5);
        for (int i = 0; i < len; i++) {
            b.appendCodePoint(pool[r.nextInt(pool.length)]);
        }
        return b.toString();
    }
}
