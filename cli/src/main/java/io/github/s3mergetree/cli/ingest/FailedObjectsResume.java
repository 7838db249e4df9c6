package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How a bounded ingest continues the objects an earlier run of it parked (failed), so that a rerun
 * after the fix ingests exactly the missing rows. A pure function of the parked splits, the objects
 * listed now and the operator's choice:
 *
 * <ul>
 *   <li>an object that has not changed (same ETag and size) is resumed from where it failed (a
 *       transient error, or an error that is not in the data);
 *   <li>an object none of whose rows was committed is read anew from the start, whatever its ETag
 *       now;
 *   <li>an object that changed after some of its rows were committed is refused, naming it and the
 *       committed row count, unless {@code --resume-changed-objects} accepts the new version from
 *       its first uncommitted row on (the new version is read whole and its first N rows, the N
 *       committed ones, are skipped). An object that was read in byte ranges, some of which were
 *       committed, cannot be resumed from a row: only its old version resumes it;
 *   <li>an object that no longer exists is dropped when none of its rows was committed; with
 *       committed rows it is refused unless {@code --resume-changed-objects} accepts that its other
 *       rows are gone.
 * </ul>
 */
final class FailedObjectsResume {
    /** The splits to read and one line per object saying what happens to it. */
    record Plan(List<S3ObjectSplit> splits, List<String> notes) {}

    private FailedObjectsResume() {}

    /**
     * @param parked the parked splits of the earlier run
     * @param listed the objects matching the source now, by key
     * @param planner how the source cuts objects into splits (to know an object's ranges)
     * @param resumeChanged {@code --resume-changed-objects}
     * @param describe an object's name as the user wrote it ({@code s3://bucket/key})
     * @throws IllegalArgumentException naming every refused object and what to do
     */
    static Plan plan(
            List<S3ObjectSplit> parked,
            Map<String, ObjectSummary> listed,
            SplitPlanner planner,
            boolean resumeChanged,
            Function<String, String> describe) {
        Map<String, List<S3ObjectSplit>> byKey = new LinkedHashMap<>();
        for (S3ObjectSplit s : parked) {
            byKey.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
        }
        List<S3ObjectSplit> splits = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Map.Entry<String, List<S3ObjectSplit>> e : byKey.entrySet()) {
            String key = e.getKey();
            List<S3ObjectSplit> failed = e.getValue();
            S3ObjectSplit first = failed.get(0);
            String name = describe.apply(key);
            long committed = 0;
            for (S3ObjectSplit s : failed) {
                committed += s.rowsRead();
            }
            int ranges =
                    planner.plan(new ObjectSummary(key, first.objectSize(), first.etag(), 0))
                            .size();
            boolean otherRangesCommitted = failed.size() < ranges;
            boolean ranged = ranges > 1;
            ObjectSummary now = listed.get(key);
            if (now != null
                    && now.etag().equals(first.etag())
                    && now.size() == first.objectSize()) {
                for (S3ObjectSplit s : failed) {
                    splits.add(s.withoutFailure());
                }
                notes.add(
                        name
                                + ": unchanged, resumed where it failed ("
                                + rows(committed)
                                + " committed before)");
                continue;
            }
            String was = "ETag " + first.etag();
            if (committed == 0 && !otherRangesCommitted) {
                if (now == null) {
                    notes.add(name + ": no longer exists; none of its rows was committed");
                } else {
                    splits.addAll(planner.plan(now));
                    notes.add(
                            name
                                    + ": changed ("
                                    + was
                                    + ", now "
                                    + now.etag()
                                    + "), none of its rows was committed: read anew from the"
                                    + " start");
                }
                continue;
            }
            if (ranged) {
                refused.add(
                        name
                                + " was read in byte ranges, "
                                + (otherRangesCommitted
                                        ? (ranges - failed.size())
                                                + " of its "
                                                + ranges
                                                + " ranges and "
                                        : "")
                                + rows(committed)
                                + " of the failed ones committed, and it "
                                + (now == null ? "no longer exists" : "has changed since")
                                + " ("
                                + was
                                + (now == null ? "" : ", now " + now.etag())
                                + "): it cannot be resumed from a row; put back the version"
                                + " with "
                                + was
                                + " to resume it exactly");
                continue;
            }
            if (!resumeChanged) {
                refused.add(
                        name
                                + (now == null ? " no longer exists" : " changed")
                                + " after an earlier run of this ingest committed "
                                + rows(committed)
                                + " of it ("
                                + was
                                + (now == null ? "" : ", now " + now.etag())
                                + "): put back the version with "
                                + was
                                + ", or rerun with --resume-changed-objects to "
                                + (now == null
                                        ? "accept that its other rows are gone"
                                        : "read the new version from row "
                                                + String.format(Locale.ROOT, "%,d", committed + 1)
                                                + " on (its first "
                                                + rows(committed)
                                                + " are taken as the committed ones)"));
                continue;
            }
            if (now == null) {
                notes.add(
                        name
                                + ": no longer exists; its "
                                + rows(committed)
                                + " committed stay, nothing more is read (--resume-changed-objects)");
                continue;
            }
            splits.add(
                    new S3ObjectSplit(
                            key,
                            now.etag(),
                            now.size(),
                            0,
                            now.size(),
                            S3ObjectSplit.NOT_STARTED,
                            0,
                            committed,
                            null));
            notes.add(
                    name
                            + ": changed ("
                            + was
                            + ", now "
                            + now.etag()
                            + "): the new version is read from row "
                            + String.format(Locale.ROOT, "%,d", committed + 1)
                            + " on (--resume-changed-objects)");
        }
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(
                    (refused.size() == 1
                                    ? "an object that failed in an earlier run cannot be"
                                            + " resumed: "
                                    : refused.size()
                                            + " objects that failed in an earlier run cannot be"
                                            + " resumed: ")
                            + String.join("; ", refused)
                            + ". Nothing was written.");
        }
        return new Plan(splits, notes);
    }

    private static String rows(long n) {
        return String.format(Locale.ROOT, "%,d row%s", n, n == 1 ? "" : "s");
    }
}
