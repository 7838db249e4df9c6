package io.github.s3mergetree.source.s3.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.source.s3.enumerator.SplitFailedAck;
import io.github.s3mergetree.source.s3.enumerator.SplitFailedEvent;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

/**
 * A reader that parks a split does not end its input before the enumerator acknowledged it: a
 * bounded job once finished while the {@link SplitFailedEvent} was still on its way, its failed
 * objects report missed the object, and the ingest ended with exit code 0 and nothing read.
 */
class S3SourceReaderParkingTest {
    /** What the reader sends; splits requested. */
    static final class Context implements SourceReaderContext {
        final List<SourceEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
            events.add(sourceEvent);
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
        }
    }

    /** Fails every split it is given, as S3SplitReader does when failed objects are parked. */
    static final class FailingSplitReader
            implements SplitReader<PositionedRecord<String>, S3ObjectSplit> {
        private final Map<String, String> failures;
        private final List<S3ObjectSplit> splits = new ArrayList<>();

        FailingSplitReader(Map<String, String> failures) {
            this.failures = failures;
        }

        @Override
        public RecordsWithSplitIds<PositionedRecord<String>> fetch() {
            RecordsBySplits.Builder<PositionedRecord<String>> b = new RecordsBySplits.Builder<>();
            for (S3ObjectSplit s : splits) {
                failures.put(s.splitId(), s.key() + ": cannot parse CSV input at line 700");
                b.addFinishedSplit(s.splitId());
            }
            splits.clear();
            return b.build();
        }

        @Override
        public void handleSplitsChanges(SplitsChange<S3ObjectSplit> change) {
            if (change instanceof SplitsAddition<S3ObjectSplit> a) {
                splits.addAll(a.splits());
            }
        }

        @Override
        public void wakeUp() {}

        @Override
        public void close() {}
    }

    static final class NoOutput implements ReaderOutput<String> {
        @Override
        public void collect(String record) {}

        @Override
        public void collect(String record, long timestamp) {}

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<String> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    /** Polls until the reader has nothing more to do for now; the last status. */
    private static InputStatus pollUntilIdle(S3SourceReader<String, String> reader)
            throws Exception {
        NoOutput out = new NoOutput();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            InputStatus s = reader.pollNext(out);
            if (s == InputStatus.END_OF_INPUT) {
                return s;
            }
            if (s == InputStatus.NOTHING_AVAILABLE) {
                try {
                    reader.isAvailable().get(200, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    return s;
                }
            }
            assertThat(System.nanoTime()).as("reader still busy after 10 s").isLessThan(deadline);
        }
    }

    @Test
    void theInputEndsOnlyWhenTheEnumeratorAcknowledgedTheParkedSplit() throws Exception {
        Context ctx = new Context();
        Map<String, String> failures = new ConcurrentHashMap<>();
        S3ObjectSplit split = new S3ObjectSplit("in/rows.csv", "e1", 17675, 0, 17675, -1, 0);
        try (S3SourceReader<String, String> reader =
                new S3SourceReader<>(
                        () -> new FailingSplitReader(failures),
                        null,
                        new Configuration(),
                        ctx,
                        failures)) {
            reader.start();
            reader.addSplits(List.of(split));
            reader.notifyNoMoreSplits();

            assertThat(pollUntilIdle(reader)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
            assertThat(ctx.events).hasSize(1).first().isInstanceOf(SplitFailedEvent.class);
            SplitFailedEvent sent = (SplitFailedEvent) ctx.events.get(0);
            assertThat(sent.split().splitId()).isEqualTo(split.splitId());
            assertThat(sent.reason()).contains("in/rows.csv: cannot parse CSV input at line 700");
            // still waiting: no end of input without the acknowledgement
            assertThat(reader.isAvailable()).isNotDone();
            assertThat(reader.pollNext(new NoOutput())).isEqualTo(InputStatus.NOTHING_AVAILABLE);
            // another split's acknowledgement does not count
            reader.handleSourceEvents(new SplitFailedAck("another-split"));
            assertThat(reader.isAvailable()).isNotDone();

            reader.handleSourceEvents(new SplitFailedAck(split.splitId()));
            assertThat(reader.isAvailable()).isDone();
            assertThat(pollUntilIdle(reader)).isEqualTo(InputStatus.END_OF_INPUT);
            // the parked split stays in the reader's checkpointed state
            assertThat(reader.snapshotState(1))
                    .singleElement()
                    .satisfies(s -> assertThat(s.isFailed()).isTrue());
        }
    }
}
