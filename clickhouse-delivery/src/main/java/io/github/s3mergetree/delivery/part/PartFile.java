package io.github.s3mergetree.delivery.part;

import io.github.s3mergetree.engine.hash.Hash128;

/**
 * One file of a part: its name inside the part directory, its size and its 128-bit CityHash in
 * ClickHouse's {@code HashingWriteBuffer} form (2048-byte chunks, the hash {@code checksums.txt}
 * records as the file's {@code file_hash}), which is also what a backup manifest lists as the
 * file's checksum.
 */
public record PartFile(String name, long size, Hash128 checksum) {}
