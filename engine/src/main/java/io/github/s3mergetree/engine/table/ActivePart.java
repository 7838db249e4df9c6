package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.time.Instant;

/**
 * An active part as {@code system.parts} shows it: name, rows, bytes on disk, uncompressed bytes of
 * its columns, and when it was created.
 */
public record ActivePart(
        PartName name, long rows, long bytesOnDisk, long dataUncompressedBytes, Instant created) {}
