package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.configuration.ConfigOption;

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
        Set<String> sourceKeys = keys(S3SourceOptions.class);
        Set<String> sinkKeys = keys(MergeTreeSinkOptions.class);
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
            if (sourceKeys.contains(name)) {
                s.source.put(name, value);
                known = true;
            }
            if (sinkKeys.contains(name)) {
                s.sink.put(name, value);
                known = true;
            }
            if (!known) {
                Set<String> all = new TreeSet<>(sourceKeys);
                all.addAll(sinkKeys);
                all.removeAll(RESERVED);
                throw new IllegalArgumentException(
                        "unknown setting '" + name + "' (known: " + String.join(", ", all) + ")");
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

    static Set<String> keys(Class<?> optionsClass) {
        Set<String> keys = new TreeSet<>();
        for (Field f : optionsClass.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && ConfigOption.class == f.getType()) {
                try {
                    keys.add(((ConfigOption<?>) f.get(null)).key());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return keys;
    }
}
