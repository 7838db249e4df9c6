package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link FailedObjectsResume}: what a rerun reads of each object an earlier run parked. */
class FailedObjectsResumeTest {
    /** TabSeparated: a splittable text format (CSV is read whole), so objects have ranges. */
    static final SplitPlanner PLANNER =
            new SplitPlanner(
                    new TextBlockFormat(
                            TextBlockFormat.Kind.of("TabSeparated"),
                            TargetSchema.parse("id Int64")),
                    1000);

    static S3ObjectSplit failed(String key, String etag, long size, long rows) {
        return new S3ObjectSplit(key, etag, size, 0, size, rows == 0 ? -1 : 77, 0, rows, "bad");
    }

    static FailedObjectsResume.Plan plan(
            List<S3ObjectSplit> parked, Map<String, ObjectSummary> now, boolean resumeChanged) {
        return FailedObjectsResume.plan(parked, now, PLANNER, resumeChanged, k -> "s3://b/" + k);
    }

    @Test
    void unchangedIsResumedWhereItFailed() {
        S3ObjectSplit f = failed("a.tsv", "e1", 500, 40);
        FailedObjectsResume.Plan p =
                plan(List.of(f), Map.of("a.tsv", new ObjectSummary("a.tsv", 500, "e1", 0)), false);
        assertThat(p.splits()).containsExactly(f.withoutFailure());
        assertThat(p.notes()).singleElement().asString().contains("unchanged");
    }

    @Test
    void changedWithoutCommittedRowsIsReadAnewAndPlannedAgain() {
        FailedObjectsResume.Plan p =
                plan(
                        List.of(failed("a.tsv", "e1", 500, 0)),
                        Map.of("a.tsv", new ObjectSummary("a.tsv", 2500, "e2", 0)),
                        false);
        // the new version is 2.5 split sizes: three fresh ranges of the new ETag
        assertThat(p.splits())
                .hasSize(3)
                .allMatch(s -> s.etag().equals("e2") && s.rowsRead() == 0 && !s.isFailed());
    }

    @Test
    void changedWithCommittedRowsNeedsTheOptionThenSkipsThem() {
        List<S3ObjectSplit> parked = List.of(failed("a.tsv", "e1", 500, 1500));
        Map<String, ObjectSummary> now = Map.of("a.tsv", new ObjectSummary("a.tsv", 2500, "e2", 0));
        assertThatThrownBy(() -> plan(parked, now, false))
                .hasMessageContaining("s3://b/a.tsv changed after an earlier run")
                .hasMessageContaining("committed 1,500 rows")
                .hasMessageContaining("from row 1,501 on")
                .hasMessageContaining("Nothing was written");
        FailedObjectsResume.Plan p = plan(parked, now, true);
        // one whole-object split of the new version, read from the start, 1,500 rows skipped
        assertThat(p.splits())
                .containsExactly(
                        new S3ObjectSplit(
                                "a.tsv",
                                "e2",
                                2500,
                                0,
                                2500,
                                S3ObjectSplit.NOT_STARTED,
                                0,
                                1500,
                                null));
    }

    @Test
    void rangedObjectWithCommittedRangesCannotResumeAChangedVersion() {
        // 2,500 bytes in ranges of 1,000: three ranges; one failed, two committed
        S3ObjectSplit range = new S3ObjectSplit("big.tsv", "e1", 2500, 834, 1667, -1, 0, 0, "bad");
        Map<String, ObjectSummary> now =
                Map.of("big.tsv", new ObjectSummary("big.tsv", 2600, "e2", 0));
        assertThatThrownBy(() -> plan(List.of(range), now, true))
                .hasMessageContaining("s3://b/big.tsv was read in byte ranges, 2 of its 3 ranges")
                .hasMessageContaining("put back the version with ETag e1");
        // unchanged, the failed range alone is read again
        Map<String, ObjectSummary> same =
                Map.of("big.tsv", new ObjectSummary("big.tsv", 2500, "e1", 0));
        assertThat(plan(List.of(range), same, false).splits())
                .containsExactly(range.withoutFailure());
    }

    @Test
    void vanishedObjects() {
        assertThat(plan(List.of(failed("gone.tsv", "e1", 500, 0)), Map.of(), false).splits())
                .isEmpty();
        List<S3ObjectSplit> committed = List.of(failed("gone.tsv", "e1", 500, 10));
        assertThatThrownBy(() -> plan(committed, Map.of(), false))
                .hasMessageContaining("s3://b/gone.tsv no longer exists after an earlier run")
                .hasMessageContaining("committed 10 rows");
        assertThat(plan(committed, Map.of(), true).splits()).isEmpty();
    }
}
