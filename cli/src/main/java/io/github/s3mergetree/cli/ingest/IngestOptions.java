package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The options of {@code s3-mergetree ingest} (and of the job jar's {@link IngestJobMain}), parsed
 * and checked for form; what needs I/O (the DDL file, the endpoint) is checked by the command.
 * {@link #toString()} never shows a secret key.
 *
 * <p>The table ({@code --table-path}) is {@code s3://bucket/prefix}, {@code file:///abs/dir} or a
 * directory (a relative one is made absolute here, in the client). An S3 table is reached with the
 * source's {@code --s3-*} settings unless a {@code --table-s3-*} option overrides one of them (the
 * table may live on another endpoint, region or account than the input). Checkpoints and savepoints
 * go beside the table ({@code s3mergetree_metadata/ingest-<key>/}, on S3 for an S3 table) or under
 * {@code --checkpoint-dir}.
 */
public record IngestOptions(
        String source,
        String format,
        Path tableDdlFile,
        String tablePath,
        URI s3Endpoint,
        String s3Region,
        String accessKey,
        String secretKey,
        boolean pathStyle,
        TableLocation.S3Settings tableS3,
        String checkpointDir,
        Integer parallelism,
        List<String> settings,
        Duration checkpointInterval,
        boolean continuous,
        Duration discoveryInterval,
        boolean optimizeFinal,
        String jobmanager,
        Path jobJar,
        List<String> flinkConfig,
        boolean verbose,
        boolean resumeChangedObjects,
        boolean startOver) {

    static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    static final Duration DEFAULT_DISCOVERY_INTERVAL = Duration.ofSeconds(10);

    /** One usage line for the command's help. */
    public static final String USAGE =
            "ingest --source s3://BUCKET/GLOB|file:///GLOB --format FORMAT --table-ddl-file FILE"
                    + " --table-path s3://BUCKET/PREFIX|DIR [--s3-endpoint URL] [--s3-region R]"
                    + " [--s3-access-key K --s3-secret-key S] [--s3-path-style]"
                    + " [--table-s3-endpoint URL] [--table-s3-region R] [--table-s3-access-key K"
                    + " --table-s3-secret-key S] [--table-s3-path-style] [--checkpoint-dir"
                    + " s3://BUCKET/PREFIX|DIR] [--parallelism N] [--setting"
                    + " name=value]... [--checkpoint-interval 10s] [--continuous"
                    + " [--discovery-interval 10s]] [--optimize-final] [--jobmanager HOST:PORT]"
                    + " [--job-jar JAR] [--flink-config key=value]... [--resume-changed-objects]"
                    + " [--start-over] [--verbose]";

    private static final Set<String> VALUED =
            Set.of(
                    "--source",
                    "--format",
                    "--table-ddl-file",
                    "--table-path",
                    "--s3-endpoint",
                    "--s3-region",
                    "--s3-access-key",
                    "--s3-secret-key",
                    "--table-s3-endpoint",
                    "--table-s3-region",
                    "--table-s3-access-key",
                    "--table-s3-secret-key",
                    "--checkpoint-dir",
                    "--parallelism",
                    "--setting",
                    "--checkpoint-interval",
                    "--discovery-interval",
                    "--jobmanager",
                    "--job-jar",
                    "--flink-config");
    private static final Set<String> FLAGS =
            Set.of(
                    "--s3-path-style",
                    "--table-s3-path-style",
                    "--continuous",
                    "--optimize-final",
                    "--verbose",
                    "--resume-changed-objects",
                    "--start-over");
    private static final Set<String> REPEATABLE = Set.of("--setting", "--flink-config");

    /** Parses the arguments after {@code ingest}. */
    public static IngestOptions parse(List<String> argv) throws UsageException {
        Args a = Args.parse(argv, VALUED, FLAGS, REPEATABLE);
        String source = a.required("--source");
        String lower = source.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("s3://") && !lower.startsWith("file://")) {
            throw new UsageException(
                    "--source must be s3://bucket/glob or file:///glob, not '" + source + "'");
        }
        boolean local = lower.startsWith("file://");
        URI endpoint = endpoint(a, "--s3-endpoint");
        if (a.has("--s3-access-key") != a.has("--s3-secret-key")) {
            throw new UsageException("--s3-access-key and --s3-secret-key go together");
        }
        String table = location(a.required("--table-path"), "--table-path");
        boolean tableOnS3 = TableLocation.isS3(table);
        if (local
                && !tableOnS3
                && (endpoint != null
                        || a.has("--s3-access-key")
                        || a.has("--s3-region")
                        || a.has("--s3-path-style"))) {
            throw new UsageException(
                    "--source "
                            + source
                            + " and --table-path "
                            + table
                            + " are local: the --s3-* options do not apply");
        }
        if (!a.has("--continuous") && a.has("--discovery-interval")) {
            throw new UsageException("--discovery-interval needs --continuous");
        }
        String jobmanager = a.get("--jobmanager").orElse(null);
        if (jobmanager != null && !jobmanager.matches("[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}")) {
            throw new UsageException("--jobmanager must be HOST:PORT, not '" + jobmanager + "'");
        }
        Integer parallelism = a.has("--parallelism") ? (int) a.positive("--parallelism", 1) : null;
        if (a.has("--table-s3-access-key") != a.has("--table-s3-secret-key")) {
            throw new UsageException("--table-s3-access-key and --table-s3-secret-key go together");
        }
        boolean tableS3Options =
                a.has("--table-s3-endpoint")
                        || a.has("--table-s3-region")
                        || a.has("--table-s3-access-key")
                        || a.has("--table-s3-path-style");
        if (!tableOnS3 && tableS3Options) {
            throw new UsageException(
                    "--table-path " + table + " is local: the --table-s3-* options do not apply");
        }
        // the table's S3 settings: the source's, each overridable (the table may be elsewhere)
        URI tableEndpoint = endpoint(a, "--table-s3-endpoint");
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        boolean ownKeys = a.has("--table-s3-access-key");
        TableLocation.S3Settings tableS3 =
                new TableLocation.S3Settings(
                        tableEndpoint != null ? tableEndpoint : endpoint,
                        a.get("--table-s3-region").orElse(a.get("--s3-region").orElse(null)),
                        a.has("--table-s3-path-style") || a.has("--s3-path-style"),
                        ownKeys
                                ? a.required("--table-s3-access-key")
                                : a.get("--s3-access-key").orElse(null),
                        ownKeys
                                ? a.required("--table-s3-secret-key")
                                : a.get("--s3-secret-key").orElse(null),
                        d.connectTimeout(),
                        d.requestTimeout());
        String checkpointDir =
                a.has("--checkpoint-dir")
                        ? location(a.required("--checkpoint-dir"), "--checkpoint-dir")
                        : null;
        return new IngestOptions(
                source,
                a.required("--format"),
                Paths.get(a.required("--table-ddl-file")).toAbsolutePath(),
                table,
                endpoint,
                a.get("--s3-region").orElse(null),
                a.get("--s3-access-key").orElse(null),
                a.get("--s3-secret-key").orElse(null),
                a.has("--s3-path-style"),
                tableS3,
                checkpointDir,
                parallelism,
                List.copyOf(a.all("--setting")),
                a.duration("--checkpoint-interval", DEFAULT_CHECKPOINT_INTERVAL),
                a.has("--continuous"),
                a.duration("--discovery-interval", DEFAULT_DISCOVERY_INTERVAL),
                a.has("--optimize-final"),
                jobmanager,
                a.get("--job-jar").map(p -> Paths.get(p).toAbsolutePath()).orElse(null),
                List.copyOf(a.all("--flink-config")),
                a.has("--verbose"),
                a.has("--resume-changed-objects"),
                a.has("--start-over"));
    }

    private static URI endpoint(Args a, String option) throws UsageException {
        if (!a.has(option)) {
            return null;
        }
        String e = a.required(option);
        URI endpoint;
        try {
            endpoint = new URI(e);
        } catch (URISyntaxException ex) {
            throw new UsageException(option + " is not a URL: '" + e + "'");
        }
        if (endpoint.getScheme() == null
                || !(endpoint.getScheme().equals("http") || endpoint.getScheme().equals("https"))
                || endpoint.getHost() == null) {
            throw new UsageException(option + " must be http(s)://host[:port], not '" + e + "'");
        }
        return endpoint;
    }

    /**
     * {@code s3://…} and {@code file:///…} as given, a directory made absolute (the client's
     * working directory; a cluster's TaskManagers would each resolve a relative path in their own);
     * checked by {@link TableLocation#parse}.
     */
    private static String location(String value, String option) throws UsageException {
        String v = value.strip();
        String resolved =
                v.contains("://") || v.startsWith("file:")
                        ? v
                        : Paths.get(v).toAbsolutePath().normalize().toString();
        try {
            TableLocation.parse(resolved, TableLocation.S3Settings.defaults());
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
        return resolved;
    }

    /** The table's storage ({@code --table-path} with the table's S3 settings). */
    public TableStorage tableStorage() {
        return TableLocation.parse(tablePath, tableS3);
    }

    /** Whether the table is on S3. */
    public boolean tableOnS3() {
        return TableLocation.isS3(tablePath);
    }

    /** The table's name for operator names: the last segment of its path or prefix. */
    public String tableName() {
        String p = tablePath;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.substring(p.lastIndexOf('/') + 1);
    }

    /** Whether the source is a local {@code file://} glob. */
    public boolean isLocalSource() {
        return source.toLowerCase(Locale.ROOT).startsWith("file://");
    }

    @Override
    public String toString() {
        return "IngestOptions[source="
                + source
                + ", format="
                + format
                + ", tablePath="
                + tablePath
                + ", endpoint="
                + s3Endpoint
                + ", tableS3="
                + tableS3
                + ", checkpointDir="
                + checkpointDir
                + ", accessKey="
                + (accessKey == null ? "(default chain)" : accessKey)
                + ", secretKey="
                + (secretKey == null ? "-" : "***")
                + ", continuous="
                + continuous
                + ", jobmanager="
                + jobmanager
                + "]";
    }
}
