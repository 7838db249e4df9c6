package io.github.s3mergetree.source.s3.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GlobPatternTest {
    @Test
    void starDoesNotCrossSlashesButDoubleStarDoes() {
        GlobPattern p = GlobPattern.compile("data/*.parquet");
        assertThat(p.matches("data/a.parquet")).isTrue();
        assertThat(p.matches("data/x/a.parquet")).isFalse();
        GlobPattern pp = GlobPattern.compile("data/**.parquet");
        assertThat(pp.matches("data/x/y/a.parquet")).isTrue();
        assertThat(pp.literalPrefix()).isEqualTo("data/");
    }

    @Test
    void questionMarkMatchesOneCharacterButSlash() {
        GlobPattern p = GlobPattern.compile("f?.csv");
        assertThat(p.matches("f1.csv")).isTrue();
        assertThat(p.matches("f12.csv")).isFalse();
        assertThat(p.matches("f/.csv")).isFalse();
    }

    @Test
    void alternativesAndRangesExpandIntoIndependentPrefixes() {
        GlobPattern p = GlobPattern.compile("logs/{a,b}/{1..3}/*.json");
        assertThat(p.listPrefixes())
                .containsExactly(
                        "logs/a/1/",
                        "logs/a/2/",
                        "logs/a/3/",
                        "logs/b/1/",
                        "logs/b/2/",
                        "logs/b/3/");
        assertThat(p.matches("logs/b/2/x.json")).isTrue();
        assertThat(p.matches("logs/c/2/x.json")).isFalse();
        assertThat(p.matches("logs/a/4/x.json")).isFalse();
    }

    @Test
    void zeroPaddedRangesKeepTheirWidth() {
        GlobPattern p = GlobPattern.compile("part-{008..011}.csv");
        assertThat(p.listPrefixes())
                .containsExactly("part-008.csv", "part-009.csv", "part-010.csv", "part-011.csv");
        assertThat(p.matches("part-009.csv")).isTrue();
        assertThat(p.matches("part-9.csv")).isFalse();
    }

    @Test
    void overlappingPrefixesAreListedOnce() {
        GlobPattern p = GlobPattern.compile("{a,ab}*");
        assertThat(p.listPrefixes()).containsExactly("a");
        assertThat(p.matches("abc")).isTrue();
    }

    @Test
    void regexCharactersAreLiteral() {
        GlobPattern p = GlobPattern.compile("a+b(1).[x]");
        assertThat(p.matches("a+b(1).[x]")).isTrue();
        assertThat(p.matches("aab(1).[x]")).isFalse();
        assertThat(p.isLiteral()).isTrue();
    }

    @Test
    void tooManyExpansionsFallBackToTheCommonPrefix() {
        GlobPattern p = GlobPattern.compile("x/{0..99}/{0..99}/*");
        assertThat(p.listPrefixes()).hasSize(100);
    }

    @Test
    void malformedGlobNamesItself() {
        assertThatThrownBy(() -> GlobPattern.compile("a/{b,c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a/{b,c");
    }
}
