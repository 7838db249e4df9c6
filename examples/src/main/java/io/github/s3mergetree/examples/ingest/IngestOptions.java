package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.examples.cli.Args;
import io.github.s3mergetree.examples.cli.UsageException;
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
 * {@link #toString()} never shows the secret key.
 */
public record IngestOptions(
        String source,
        String format,
        Path tableDdlFile,
        Path tablePath,
        URI s3Endpoint,
        String s3Region,
        String accessKey,
        String secretKey,
        boolean pathStyle,
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
                    + " --table-path DIR [--s3-endpoint URL] [--s3-region R] [--s3-access-key K"
                    + " --s3-secret-key S] [--s3-path-style] [--parallelism N] [--setting"
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
        URI endpoint = null;
        if (a.has("--s3-endpoint")) {
            String e = a.required("--s3-endpoint");
            try {
                endpoint = new URI(e);
            } catch (URISyntaxException ex) {
                throw new UsageException("--s3-endpoint is not a URL: '" + e + "'");
            }
            if (endpoint.getScheme() == null
                    || !(endpoint.getScheme().equals("http")
                            || endpoint.getScheme().equals("https"))
                    || endpoint.getHost() == null) {
                throw new UsageException(
                        "--s3-endpoint must be http(s)://host[:port], not '" + e + "'");
            }
        }
        if (a.has("--s3-access-key") != a.has("--s3-secret-key")) {
            throw new UsageException("--s3-access-key and --s3-secret-key go together");
        }
        if (local && (endpoint != null || a.has("--s3-access-key") || a.has("--s3-region"))) {
            throw new UsageException(
                    "--source " + source + " is local: the --s3-* options do not apply");
        }
        if (!a.has("--continuous") && a.has("--discovery-interval")) {
            throw new UsageException("--discovery-interval needs --continuous");
        }
        String jobmanager = a.get("--jobmanager").orElse(null);
        if (jobmanager != null && !jobmanager.matches("[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}")) {
            throw new UsageException("--jobmanager must be HOST:PORT, not '" + jobmanager + "'");
        }
        Integer parallelism = a.has("--parallelism") ? (int) a.positive("--parallelism", 1) : null;
        return new IngestOptions(
                source,
                a.required("--format"),
                Paths.get(a.required("--table-ddl-file")).toAbsolutePath(),
                Paths.get(a.required("--table-path")).toAbsolutePath().normalize(),
                endpoint,
                a.get("--s3-region").orElse(null),
                a.get("--s3-access-key").orElse(null),
                a.get("--s3-secret-key").orElse(null),
                a.has("--s3-path-style"),
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
