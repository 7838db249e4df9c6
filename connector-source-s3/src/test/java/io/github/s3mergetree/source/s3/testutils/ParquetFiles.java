package io.github.s3mergetree.source.s3.testutils;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.BiConsumer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** Writes Parquet files into memory for tests (parquet-hadoop's example writer). */
public final class ParquetFiles {
    /** Creating a Hadoop configuration parses XML resources: share one. */
    private static final org.apache.hadoop.conf.Configuration CONF =
            new org.apache.hadoop.conf.Configuration(false);

    private ParquetFiles() {}

    /**
     * A Parquet file of {@code rows} rows of {@code schema} (Parquet message syntax), each filled
     * by {@code fill(group, rowIndex)}; row groups of about {@code rowGroupBytes}.
     */
    public static byte[] write(
            String schema,
            long rows,
            CompressionCodecName codec,
            long rowGroupBytes,
            BiConsumer<Group, Long> fill)
            throws IOException {
        return write(
                schema,
                rows,
                codec,
                rowGroupBytes,
                org.apache.parquet.column.ParquetProperties.WriterVersion.PARQUET_1_0,
                fill);
    }

    /** As {@link #write(String, long, CompressionCodecName, long, BiConsumer)}, v1 or v2 pages. */
    public static byte[] write(
            String schema,
            long rows,
            CompressionCodecName codec,
            long rowGroupBytes,
            org.apache.parquet.column.ParquetProperties.WriterVersion version,
            BiConsumer<Group, Long> fill)
            throws IOException {
        return write(schema, rows, codec, rowGroupBytes, version, true, fill);
    }

    /** Like the others, with dictionary encoding on or off (off: PLAIN pages only). */
    public static byte[] write(
            String schema,
            long rows,
            CompressionCodecName codec,
            long rowGroupBytes,
            org.apache.parquet.column.ParquetProperties.WriterVersion version,
            boolean dictionary,
            BiConsumer<Group, Long> fill)
            throws IOException {
        MessageType type = MessageTypeParser.parseMessageType(schema);
        InMemoryOutputFile out = new InMemoryOutputFile();
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> w =
                ExampleParquetWriter.builder(out)
                        .withConf(CONF)
                        .withType(type)
                        .withCompressionCodec(codec)
                        .withRowGroupSize(rowGroupBytes)
                        .withPageSize(64 * 1024)
                        .withDictionaryEncoding(dictionary)
                        .withWriterVersion(version)
                        .build()) {
            for (long i = 0; i < rows; i++) {
                Group g = groups.newGroup();
                fill.accept(g, i);
                w.write(g);
            }
        }
        return out.bytes.toByteArray();
    }

    /**
     * A simple two-column file: {@code id INT64, name STRING} with ids {@code [from, from+rows)}.
     */
    public static byte[] idsAndNames(long from, long rows, CompressionCodecName codec)
            throws IOException {
        return write(
                "message m { required int64 id; optional binary name (STRING); }",
                rows,
                codec,
                128L * 1024 * 1024,
                (g, i) -> {
                    g.add("id", from + i);
                    if ((from + i) % 7 != 0) {
                        g.add("name", "n" + (from + i));
                    }
                });
    }

    private static final class InMemoryOutputFile implements OutputFile {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return stream();
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            bytes.reset();
            return stream();
        }

        private PositionOutputStream stream() {
            return new PositionOutputStream() {
                @Override
                public long getPos() {
                    return bytes.size();
                }

                @Override
                public void write(int b) {
                    bytes.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    bytes.write(b, off, len);
                }
            };
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }
}
