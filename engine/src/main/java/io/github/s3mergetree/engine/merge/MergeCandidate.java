package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.part.PartName;

/**
 * What the merge selector knows about an active part: its name (partition and block range), its
 * size on disk, its age, and whether it may take part in a merge now (false while another merge
 * holds it).
 *
 * @param name the part
 * @param bytesOnDisk compressed size, the selector's measure of merge cost
 * @param ageSeconds seconds since the part was created
 * @param shallParticipate false if the part is already being merged
 */
public record MergeCandidate(
        PartName name, long bytesOnDisk, long ageSeconds, boolean shallParticipate) {
    public MergeCandidate {
        if (bytesOnDisk < 0 || ageSeconds < 0) {
            throw new IllegalArgumentException(
                    "negative size " + bytesOnDisk + " or age " + ageSeconds + " of " + name);
        }
    }
}
