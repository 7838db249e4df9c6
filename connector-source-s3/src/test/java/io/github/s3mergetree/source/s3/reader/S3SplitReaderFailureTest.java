package io.github.s3mergetree.source.s3.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed read reports its own cause first, even when closing its reader fails too. */
class S3SplitReaderFailureTest {

    /** A format whose reader fails to read and then fails to close (as Arrow's does). */
    static final class FailingFormat implements S3ObjectFormat<String> {
        @Override
        public TypeInformation<String> getProducedType() {
            return Types.STRING;
        }

        @Override
        public boolean isSplittable(String key) {
            return false;
        }

        @Override
        public FormatReader<String> createReader(FormatContext context, S3ObjectSplit split) {
            return new FormatReader<>() {
                @Override
                public List<PositionedRecord<String>> nextBatch() throws IOException {
                    throw new IOException("the real cause: column 'x' at row 7");
                }

                @Override
                public void close() {
                    throw new IllegalStateException("Memory was leaked by query");
                }
            };
        }
    }

    @Test
    void theReadFailureIsThrownWithTheCloseFailureSuppressed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("o.bin"), "x");
        S3SplitReader<String> reader =
                new S3SplitReader<>(
                        new FailingFormat(),
                        ObjectStoreConfig.localDirectory(dir.toString()).createClient(),
                        new Configuration(),
                        S3SourceMetrics.unregistered(),
                        Executors.newFixedThreadPool(1),
                        null);
        try {
            reader.handleSplitsChanges(
                    new SplitsAddition<>(List.of(S3ObjectSplit.of("o.bin", "", 1, 0, 1))));
            assertThatThrownBy(reader::fetch)
                    .isInstanceOf(IOException.class)
                    .hasMessage("the real cause: column 'x' at row 7")
                    .satisfies(
                            e ->
                                    assertThat(e.getSuppressed())
                                            .singleElement()
                                            .satisfies(
                                                    s ->
                                                            assertThat(s)
                                                                    .hasMessageContaining(
                                                                            "Memory was leaked")));
        } finally {
            reader.close();
        }
    }
}
