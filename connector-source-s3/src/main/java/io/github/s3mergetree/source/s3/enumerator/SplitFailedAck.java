package io.github.s3mergetree.source.s3.enumerator;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Sent by the enumerator to the reader of a {@link SplitFailedEvent} once the parked split is
 * recorded (and written to the failed objects report, when one is configured). The reader does not
 * end its input before every split it parked is acknowledged: otherwise a bounded job could finish
 * while the event is still on its way, the report would miss the object, and the run would end as
 * if it had read everything.
 *
 * @param splitId the parked split's id
 */
@org.apache.flink.annotation.Internal
public record SplitFailedAck(String splitId) implements SourceEvent {}
