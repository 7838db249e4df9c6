package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Tokens, epochs and the last committable (the parts themselves: MergeTreeSinkWriterTest). */
class WriterCommittablesTest {
    @Test
    void tokensCountWithinAnEpochAndRestartInTheNext() {
        WriterCommittables c = new WriterCommittables("s", "job", 3, 5, true);
        assertThat(c.purpose()).isEqualTo("s3mt-s-3-5");
        assertThat(c.hasCommittable()).isFalse();
        assertThat(c.next()).isEmpty();
        c.endOfInput();
        assertThat(c.hasCommittable()).isTrue();
        assertThat(c.next())
                .singleElement()
                .satisfies(
                        x -> {
                            assertThat(x.token()).isEqualTo("s-job-3-5-0");
                            assertThat(x.endOfInput()).isTrue();
                            assertThat(x.jobId()).isEqualTo("job");
                        });
        assertThat(c.hasCommittable()).as("the end of the input is told once").isFalse();
        assertThat(c.snapshot(6, 42)).isEqualTo(new MergeTreeWriterState("s", 3, 6, 42));
        assertThat(c.purpose()).isEqualTo("s3mt-s-3-6");
    }

    @Test
    void withoutDeduplicationNoToken() {
        WriterCommittables c = new WriterCommittables("s", "job", 0, 0, false);
        c.endOfInput();
        assertThat(c.next()).singleElement().satisfies(x -> assertThat(x.token()).isNull());
    }
}
