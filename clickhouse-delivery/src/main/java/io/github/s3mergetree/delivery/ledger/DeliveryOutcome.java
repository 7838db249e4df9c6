package io.github.s3mergetree.delivery.ledger;

/**
 * How a recorded delivery ended: its parts are in the server's table ({@code delivered}), or none
 * of them is and none ever will be ({@code notDelivered}: the RESTORE failed, never started and was
 * fenced, or the operator said so), with the evidence that decided it.
 */
public record DeliveryOutcome(long sequence, boolean delivered, String evidence) {}
