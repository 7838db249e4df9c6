package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;
import org.apache.flink.runtime.util.EnvironmentInformation;

/**
 * Flink's S3 file system for checkpoints and savepoints on S3: the {@code flink-s3-fs-presto}
 * plugin, loaded from a {@code plugins/} directory as Flink's own distribution does (in its own
 * class loader, so its shaded Hadoop and AWS SDK meet nothing of ours), and the {@code s3.*}
 * settings that point it at the table's S3 (endpoint, region, path-style access, credentials).
 *
 * <p>The embedded MiniCluster runs in this JVM, so initializing Flink's {@link FileSystem} here is
 * what its JobManager and TaskManagers use. A cluster loads the plugin from its own {@code
 * plugins/} directory and takes the {@code s3.*} settings from its configuration: the {@code
 * ingest} command cannot configure another cluster's file systems.
 *
 * <p>Where the plugins are: {@code -Ds3mergetree.plugins.dir=DIR}, else {@code FLINK_PLUGINS_DIR}
 * (Flink's own variable), else {@code plugins/} beside the CLI jar or classes (the build puts the
 * plugin in {@code cli/target/plugins/s3-fs-presto/}).
 */
public final class FlinkFileSystems {
    /** The system property naming the plugins directory. */
    public static final String PLUGINS_PROPERTY = "s3mergetree.plugins.dir";

    private FlinkFileSystems() {}

    /** Sets Flink's {@code s3.*} options (read by the S3 plugin) from the table's S3 settings. */
    public static void configureS3(Configuration conf, TableLocation.S3Settings s3) {
        if (s3.endpoint() != null) {
            setIfAbsent(conf, "s3.endpoint", s3.endpoint().toString());
            if ("http".equals(s3.endpoint().getScheme())) {
                setIfAbsent(conf, "s3.ssl.enabled", "false");
            }
        }
        if (s3.region() != null) {
            setIfAbsent(conf, "s3.region", s3.region());
        }
        setIfAbsent(conf, "s3.path-style-access", Boolean.toString(s3.pathStyle()));
        if (s3.accessKey() != null) {
            setIfAbsent(conf, "s3.access-key", s3.accessKey());
            setIfAbsent(conf, "s3.secret-key", s3.secretKey());
        }
    }

    private static void setIfAbsent(Configuration conf, String key, String value) {
        if (!conf.containsKey(key)) {
            conf.setString(key, value);
        }
    }

    /**
     * Initializes Flink's file systems in this JVM with {@code conf} and the plugins directory's
     * plugins; {@link IllegalStateException} naming the places looked at if there is no S3 plugin.
     */
    public static void initializeWithS3Plugin(Configuration conf) throws IOException {
        Optional<Path> dir = pluginsDirectory();
        List<String> jars = dir.isPresent() ? s3PluginJars(dir.get()) : List.of();
        String flink = EnvironmentInformation.getVersion();
        if (jars.stream().noneMatch(j -> sameFlinkLine(pluginVersion(j), flink))) {
            throw new IllegalStateException(
                    "checkpoints on S3 need Flink's S3 file system plugin (flink-s3-fs-presto) of"
                            + " this Flink ("
                            + flink
                            + ") in a plugins directory: "
                            + (jars.isEmpty()
                                    ? "none found "
                                            + dir.map(d -> "in " + d)
                                                    .orElse("(no plugins directory)")
                                    : "found only " + jars + " in " + dir.get())
                            + "; set -D"
                            + PLUGINS_PROPERTY
                            + "=DIR or FLINK_PLUGINS_DIR, or give --checkpoint-dir a local"
                            + " directory");
        }
        PluginManager plugins =
                new DefaultPluginManager(
                        new DirectoryBasedPluginFinder(dir.get()).findPlugins(),
                        CoreOptions.getPluginParentFirstLoaderPatterns(conf));
        FileSystem.initialize(conf, plugins);
    }

    /** Whether the plugins directory has an S3 plugin of the running Flink's line. */
    public static boolean hasS3PluginOfThisFlink() {
        try {
            Optional<Path> dir = pluginsDirectory();
            String flink = EnvironmentInformation.getVersion();
            return dir.isPresent()
                    && s3PluginJars(dir.get()).stream()
                            .anyMatch(j -> sameFlinkLine(pluginVersion(j), flink));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The Flink version a plugin jar is named for ({@code flink-s3-fs-presto-2.3.0.jar}: {@code
     * 2.3.0}).
     */
    static String pluginVersion(String jarName) {
        String n = jarName.substring(0, jarName.length() - ".jar".length());
        int dash = n.lastIndexOf('-');
        return dash < 0 ? "" : n.substring(dash + 1);
    }

    /**
     * Whether a plugin of Flink {@code plugin} loads into Flink {@code flink}: the same major and
     * minor version (the plugin's classes implement that line's file system interfaces).
     */
    static boolean sameFlinkLine(String plugin, String flink) {
        return majorMinor(plugin).equals(majorMinor(flink)) && !majorMinor(flink).isEmpty();
    }

    private static String majorMinor(String version) {
        String[] p = version.split("\\.");
        return p.length < 2 ? "" : p[0] + "." + p[1];
    }

    /** The plugins directory, if there is one. */
    public static Optional<Path> pluginsDirectory() {
        String p = System.getProperty(PLUGINS_PROPERTY);
        if (p == null || p.isBlank()) {
            p = System.getenv("FLINK_PLUGINS_DIR");
        }
        if (p != null && !p.isBlank()) {
            return Optional.of(Path.of(p));
        }
        try {
            Path code =
                    Path.of(
                            FlinkFileSystems.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            Path beside = code.getParent().resolve("plugins");
            return Files.isDirectory(beside) ? Optional.of(beside) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static List<String> s3PluginJars(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var s = Files.walk(dir, 2)) {
            return s.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith("flink-s3-fs-") && n.endsWith(".jar"))
                    .sorted()
                    .toList();
        }
    }
}
