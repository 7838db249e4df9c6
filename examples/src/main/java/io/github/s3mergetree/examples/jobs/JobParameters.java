package io.github.s3mergetree.examples.jobs;

import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.source.s3.S3ObjectFormats;
import io.github.s3mergetree.source.s3.S3SourceBuilder;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The {@code --key value} parameters the S3 → MergeTree example jobs share.
 *
 * <ul>
 *   <li>{@code --location} (required): {@code s3://bucket/glob} (ClickHouse glob syntax) or {@code
 *       file:///dir/glob};
 *   <li>{@code --endpoint}: an S3-compatible server such as {@code http://127.0.0.1:9000}
 *       (path-style requests), else AWS;
 *   <li>{@code --access-key} / {@code --secret-key}: static credentials, else the AWS default chain
 *       ({@code AWS_ACCESS_KEY_ID} / {@code AWS_SECRET_ACCESS_KEY}, profiles, instance roles),
 *       which keeps the secret off the command line;
 *   <li>{@code --format}: {@code Parquet} (default) or another of {@link S3ObjectFormats#NAMES};
 *   <li>{@code --table-path} (required): the MergeTree table directory;
 *   <li>{@code --ddl} or {@code --ddl-file}: the ClickHouse {@code CREATE TABLE}, else the DDL
 *       stored in an existing table directory;
 *   <li>{@code --columns}: the columns read from the objects, e.g. {@code "id UInt64, name
 *       String"}; by default the table's columns except MATERIALIZED and ALIAS ones.
 * </ul>
 */
final class JobParameters {
    private JobParameters() {}

    /**
     * The table, parsed once here for the source's columns and the sink: its DDL from {@code
     * --ddl}, {@code --ddl-file} or the one stored under the path.
     *
     * @throws IllegalArgumentException if there is no DDL or it is invalid
     */
    static TableDefinition table(JobArgs p) {
        String ddl = ddl(p);
        try {
            return TableDefinition.parse(ddl);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid table DDL: " + e.getMessage(), e);
        }
    }

    /** The table's DDL: {@code --ddl}, {@code --ddl-file} or the one stored under the path. */
    private static String ddl(JobArgs p) {
        try {
            if (p.has("ddl")) {
                return p.get("ddl");
            }
            if (p.has("ddl-file")) {
                return DdlFiles.read(Paths.get(p.get("ddl-file")));
            }
            java.nio.file.Path stored =
                    Paths.get(p.getRequired("table-path")).resolve(TableKeys.DDL);
            if (Files.isRegularFile(stored)) {
                return DdlFiles.read(stored);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the DDL: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(
                "give --ddl or --ddl-file: "
                        + p.get("table-path")
                        + " holds no table yet to take the DDL from");
    }

    /** {@code --columns}, else the DDL's columns that an insert may give. */
    static TargetSchema columns(JobArgs p, TableDefinition table) {
        return p.has("columns")
                ? TargetSchema.parse(p.get("columns"))
                : TargetSchema.insertableColumns(table.schema());
    }

    /**
     * The object format named by {@code --format} (default Parquet), decoding into {@code schema}.
     */
    static S3ObjectFormat<Block> format(JobArgs p, TargetSchema schema) {
        return S3ObjectFormats.forName(p.get("format", "Parquet"), schema, "auto");
    }

    /** Applies {@code --location}, {@code --endpoint} and the credentials to {@code builder}. */
    static <T> S3SourceBuilder<T> connection(S3SourceBuilder<T> builder, JobArgs p) {
        builder.setLocation(p.getRequired("location"));
        if (p.has("endpoint")) {
            builder.setEndpoint(URI.create(p.get("endpoint"))).setPathStyleAccess(true);
        }
        if (p.has("access-key") != p.has("secret-key")) {
            throw new IllegalArgumentException(
                    "give both --access-key and --secret-key, or neither (the AWS default chain)");
        }
        if (p.has("access-key")) {
            builder.setCredentials(p.get("access-key"), p.get("secret-key"));
        } else {
            builder.useDefaultCredentials();
        }
        return builder;
    }
}
