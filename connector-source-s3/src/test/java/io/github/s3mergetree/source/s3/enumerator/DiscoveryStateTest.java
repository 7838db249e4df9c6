package io.github.s3mergetree.source.s3.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import org.junit.jupiter.api.Test;

class DiscoveryStateTest {
    static ObjectSummary o(String key) {
        return new ObjectSummary(key, 1, "e", 0);
    }

    @Test
    void orderedKeepsOnlyTheLastKey() {
        DiscoveryState s = new DiscoveryState(DiscoveryMode.ORDERED, 10, 0);
        for (int i = 0; i < 1000; i++) {
            s.markDiscovered(o(String.format("k%05d", i)), i);
        }
        assertThat(s.size()).isEqualTo(1);
        assertThat(s.startAfter()).isEqualTo("k00999");
        assertThat(s.isNew(o("k00500"))).isFalse();
        assertThat(s.isNew(o("k01000"))).isTrue();
    }

    /**
     * S3 lists {@code "\uFF21"} (fullwidth A, U+FF21) before an emoji (U+1F600): by UTF-8 bytes.
     * Java's compareTo orders them the other way (UTF-16 surrogates D83D < FF21), which used to
     * skip the emoji key: discovered after the fullwidth one, it was not "after" the last key.
     */
    @Test
    void orderedComparesKeysAsS3ListsThem() {
        DiscoveryState s = new DiscoveryState(DiscoveryMode.ORDERED, 10, 0);
        s.markDiscovered(o("\uff21.csv"), 0);
        assertThat(s.isNew(o("\ud83d\ude00.csv"))).isTrue();
        s.markDiscovered(o("\ud83d\ude00.csv"), 1);
        assertThat(s.startAfter()).isEqualTo("\ud83d\ude00.csv");
        assertThat(s.isNew(o("\uff21.csv"))).isFalse();
        assertThat(s.isNew(o("\uffff.csv"))).isFalse();
        assertThat(s.isNew(o("\ud83d\ude01.csv"))).isTrue();
    }

    @Test
    void unorderedIsBoundedByCountAndTtl() {
        DiscoveryState s = new DiscoveryState(DiscoveryMode.UNORDERED, 100, 50_000);
        for (int i = 0; i < 1000; i++) {
            s.markDiscovered(o("k" + i), i * 100L);
        }
        assertThat(s.size()).isEqualTo(100);
        assertThat(s.isNew(o("k999"))).isFalse();
        assertThat(s.isNew(o("k0"))).isTrue(); // forgotten: oldest first
        s.expire(999 * 100L + 1);
        assertThat(s.size()).isEqualTo(100); // all younger than 50 s
        s.expire(999 * 100L + 45_000);
        assertThat(s.size()).isEqualTo(50);
        assertThat(s.isNew(o("k949"))).isTrue();
        assertThat(s.isNew(o("k950"))).isFalse();
        assertThat(s.startAfter()).isNull();
    }
}
