package io.github.s3mergetree.delivery.ledger;

import io.github.s3mergetree.engine.part.PartName;
import java.util.UUID;

/**
 * A part named by a delivery: its name in the written table, rows, bytes, and the UUID it carries
 * on the server ({@code uuid.txt}, {@code system.parts.uuid}), derived from the delivery's id and
 * the part ({@link io.github.s3mergetree.delivery.ledger.DeliveryIds#partUuid}) so that every
 * attempt of one delivery uses the same UUID and no other delivery (of any written table) uses it.
 */
public record DeliveredPart(PartName name, long rows, long bytes, UUID uuid) {}
