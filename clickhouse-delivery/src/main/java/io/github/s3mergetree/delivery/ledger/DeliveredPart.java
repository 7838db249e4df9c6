package io.github.s3mergetree.delivery.ledger;

import io.github.s3mergetree.engine.part.PartName;
import java.util.UUID;

/**
 * A part named by a delivery: its name in the written table, rows, bytes, and the UUID it carries
 * on the server ({@code uuid.txt}, {@code system.parts.uuid}), derived from the target and the part
 * so that every attempt to deliver the same part to the same target uses the same UUID.
 */
public record DeliveredPart(PartName name, long rows, long bytes, UUID uuid) {}
