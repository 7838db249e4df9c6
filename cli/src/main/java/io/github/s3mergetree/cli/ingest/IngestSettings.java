package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Routes {@code --setting name=value} to the source ({@link S3SourceOptions}) and/or the sink
 * ({@link MergeTreeSinkOptions}) by name, as ClickHouse routes a query's SETTINGS: a name both know
 * (e.g. {@code input_format_skip_unknown_fields}) goes to both; an unknown name is an error that
 * lists the known ones.
 */
public final class IngestSettings {
    /** Sink options the ingest command sets itself from its own flags. */
    private static final Set<String> RESERVED =
            Set.of(
                    "path",
                    "ddl",
                    "ddl-file",
                    "sink-id",
                    "sink.parallelism",
                    "engine",
                    "order-by",
                    "partition-by",
                    "primary-key",
                    "settings",
                    "table-name",
                    "discovery-interval",
                    "source.monitor-interval",
                    "s3.failed-objects.report",
                    "writer-lease.key",
                    "writer-lease.owner",
                    "writer-lease.epoch");

    private final Map<String, String> source = new TreeMap<>();
    private final Map<String, String> sink = new TreeMap<>();

    private IngestSettings() {}

    /**
     * Parses {@code name=value} pairs; throws {@link IllegalArgumentException} naming the bad one.
     */
    public static IngestSettings parse(Iterable<String> pairs) {
        IngestSettings s = new IngestSettings();
        NamedSettings sourceSettings = NamedSettings.ofFields(S3SourceOptions.class);
        NamedSettings sinkSettings = NamedSettings.ofFields(MergeTreeSinkOptions.class);
        Set<String> sourceKeys = sourceSettings.names();
        Set<String> sinkKeys = sinkSettings.names();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "--setting takes name=value, not '" + pair + "'");
            }
            String name = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            if (RESERVED.contains(name)) {
                throw new IllegalArgumentException(
                        "setting '" + name + "' is set by the command's own options");
            }
            boolean known = false;
            // booleans as ClickHouse takes them (0, 1, true, false), checked here already
            if (sourceKeys.contains(name)) {
                s.source.put(name, sourceSettings.check(name, value));
                known = true;
            }
            if (sinkKeys.contains(name)) {
                s.sink.put(name, sinkSettings.check(name, value));
                known = true;
            }
            if (!known) {
                Set<String> all = new TreeSet<>(sourceKeys);
                all.addAll(sinkKeys);
                all.removeAll(RESERVED);
                throw new IllegalArgumentException(NamedSettings.unknownMessage(name, all));
            }
        }
        return s;
    }

    /** The settings for the source, by {@link S3SourceOptions} key. */
    public Map<String, String> source() {
        return source;
    }

    /** The settings for the sink, by {@link MergeTreeSinkOptions} key. */
    public Map<String, String> sink() {
        return sink;
    }
}
