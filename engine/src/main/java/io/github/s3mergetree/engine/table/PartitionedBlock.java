package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.part.PartitionData;

/**
 * The rows of one partition of an insert block, sorted by the sorting key, with the primary key
 * columns in the same order: exactly what one new part holds.
 */
public record PartitionedBlock(PartitionData partition, Block rows, Block primaryKey) {}
