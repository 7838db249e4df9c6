package io.github.s3mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The restore-vs-attach decision the sink, {@code deliver} and {@code ingest} share. */
class DeliveryMethodTest {
    @Test
    void withoutAChoiceATableOnS3IsRestoredAndADirectoryTableAttached() {
        assertThat(DeliveryMethod.forTable("deliver", null, true, "s3://b/t"))
                .isEqualTo(DeliveryMethod.RESTORE);
        assertThat(DeliveryMethod.forTable("deliver", null, false, "/data/t"))
                .isEqualTo(DeliveryMethod.ATTACH);
    }

    @Test
    void aChoiceIsTakenInAnyCase() {
        assertThat(DeliveryMethod.forTable("--deliver", "Restore", true, "s3://b/t"))
                .isEqualTo(DeliveryMethod.RESTORE);
        // attaching a table on S3 is a valid choice (the parts are read through the table's store)
        assertThat(DeliveryMethod.forTable("--deliver", "ATTACH", true, "s3://b/t"))
                .isEqualTo(DeliveryMethod.ATTACH);
        assertThat(DeliveryMethod.forTable("--deliver", "attach", false, "/data/t"))
                .isEqualTo(DeliveryMethod.ATTACH);
        assertThat(DeliveryMethod.ATTACH.optionValue()).isEqualTo("attach");
        assertThat(DeliveryMethod.RESTORE.optionValue()).isEqualTo("restore");
    }

    @Test
    void anUnknownMethodIsRefusedNamingOptionAndValue() {
        assertThatThrownBy(() -> DeliveryMethod.forTable("--deliver", "copy", true, "s3://b/t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--deliver must be restore or attach, got: 'copy'");
        assertThatThrownBy(() -> DeliveryMethod.parse("deliver", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("deliver must be restore or attach, got: ''");
    }

    @Test
    void restoringATableNotOnS3IsRefused() {
        assertThatThrownBy(() -> DeliveryMethod.forTable("--deliver", "restore", false, "/data/t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--deliver restore needs the table on S3 (the server reads the parts from"
                                + " the bucket), not /data/t: use --deliver attach");
        assertThatThrownBy(() -> DeliveryMethod.forTable("deliver", "restore", false, "/data/t"))
                .hasMessageEndingWith("not /data/t: use deliver = attach")
                .hasMessageStartingWith("deliver = restore needs the table on S3");
    }
}
