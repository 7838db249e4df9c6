package io.github.s3mergetree.cli.docs;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.util.TimeUtils;

/**
 * Renders {@code docs/options.md}, the options reference, from the code itself: one table (key,
 * type, default, description) per class named {@code *Options} under {@code io.github.s3mergetree}
 * that holds Flink {@link ConfigOption}s, found on the classpath (so a new options class or option
 * appears without editing this class), followed by the {@code s3-mergetree} command's own help.
 * Classes named {@code *Options} without {@code ConfigOption}s (records of a command's parsed flags
 * or of an engine's parameters) are listed by name, so adding one is noticed in review as well.
 *
 * <p>Run {@link #main} (or {@code OptionsReferenceTest} with {@code
 * -Ds3mergetree.docs.regenerate=true}) to rewrite the file; {@code OptionsReferenceTest} fails when
 * the checked-in file differs from what this renders, as Flink's {@code
 * ConfigOptionsDocsCompletenessITCase} does for Flink's own options.
 */
public final class OptionsReference {
    /** The package whose classes are searched. */
    static final String ROOT_PACKAGE = "io.github.s3mergetree";

    /** The reference's path, relative to the repository root. */
    static final String DOCS_FILE = "docs/options.md";

    /** The command that rewrites {@link #DOCS_FILE}, for failure messages and the file's header. */
    static final String REGENERATE_COMMAND =
            "mvn -B -Dinstall.engines.skip=true -pl cli -am test"
                    + " -Dtest=OptionsReferenceTest -Dsurefire.failIfNoSpecifiedTests=false"
                    + " -Ds3mergetree.docs.regenerate=true";

    private OptionsReference() {}

    /** Writes {@link #DOCS_FILE} under the repository root found from the working directory. */
    public static void main(String[] args) throws IOException {
        Path file = repositoryRoot().resolve(DOCS_FILE);
        Files.writeString(file, render(), StandardCharsets.UTF_8);
        System.out.println("wrote " + file);
    }

    /** The whole reference, as {@link #DOCS_FILE} should hold it. */
    public static String render() {
        List<Class<?>> classes = optionsClasses();
        StringBuilder b = new StringBuilder();
        b.append("# Options reference\n\n")
                .append("<!-- Generated from the *Options classes by OptionsReference (cli,")
                .append(" test scope): do not edit by hand. Regenerate with\n")
                .append("     ")
                .append(REGENERATE_COMMAND)
                .append(" -->\n\n")
                .append("Every Flink option of the connectors, one table per class that declares")
                .append(" them. The DataStream builders take them with `setOption(option, value)`")
                .append(
                        " or `setSetting(key, value)` (see [datastream.md](datastream.md)), the SQL")
                .append(" connectors as `WITH` options (see [sql.md](sql.md)), and `s3-mergetree")
                .append(" ingest` takes those of `S3SourceOptions` and `MergeTreeSinkOptions` it")
                .append(" does not set from its own flags as `--setting key=value` (see")
                .append(" [cli.md](cli.md#settings---setting-namevalue)). Where an option has a")
                .append(" ClickHouse setting's name it has that setting's meaning and default.\n");
        List<String> others = new ArrayList<>();
        for (Class<?> c : classes) {
            List<Field> fields = configOptionFields(c);
            if (fields.isEmpty()) {
                others.add(c.getName());
                continue;
            }
            b.append("\n## ").append(c.getSimpleName()).append("\n\n");
            b.append("`").append(c.getName()).append("`\n\n");
            b.append("| key | type | default | description |\n");
            b.append("|---|---|---|---|\n");
            for (Field f : fields) {
                b.append(row(f));
            }
        }
        b.append("\n## Command line\n\n")
                .append("The `s3-mergetree` command's own help (`./s3-mergetree --help`);")
                .append(" [cli.md](cli.md) explains each flag.\n\n```\n")
                .append(commandHelp().strip())
                .append("\n```\n");
        if (!others.isEmpty()) {
            b.append("\n## Other `*Options` classes\n\n")
                    .append("These hold no Flink options (parsed command lines, engine and")
                    .append(" delivery parameters); their javadoc describes them.\n\n");
            for (String name : others) {
                b.append("- `").append(name).append("`\n");
            }
        }
        return b.toString();
    }

    /** Every top-level class named {@code *Options} under {@link #ROOT_PACKAGE}, by name. */
    static List<Class<?>> optionsClasses() {
        TreeSet<String> names = new TreeSet<>();
        String root = ROOT_PACKAGE.replace('.', '/');
        ClassLoader loader = OptionsReference.class.getClassLoader();
        try {
            Enumeration<URL> urls = loader.getResources(root);
            while (urls.hasMoreElements()) {
                URL url = urls.nextElement();
                if (isTestCode(url)) {
                    continue; // test classes (this module's, other modules' test jars) are no API
                }
                if (url.getProtocol().equals("file")) {
                    Path base = Paths.get(url.toURI());
                    try (Stream<Path> files = Files.walk(base)) {
                        files.map(
                                        p ->
                                                root
                                                        + "/"
                                                        + base.relativize(p)
                                                                .toString()
                                                                .replace('\\', '/'))
                                .filter(OptionsReference::isOptionsClassFile)
                                .forEach(n -> names.add(className(n)));
                    }
                } else if (url.getProtocol().equals("jar")) {
                    JarURLConnection connection = (JarURLConnection) url.openConnection();
                    // a JarFile of its own: closing a cached one would close it for everyone
                    connection.setUseCaches(false);
                    try (JarFile jar = connection.getJarFile()) {
                        for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                            if (e.getName().startsWith(root + "/")
                                    && isOptionsClassFile(e.getName())) {
                                names.add(className(e.getName()));
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Class<?>> classes = new ArrayList<>();
        for (String name : names) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                if (Modifier.isPublic(c.getModifiers())) {
                    classes.add(c);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("cannot load options class " + name, e);
            }
        }
        return classes;
    }

    /** Whether a classpath root holds test code: a test-classes directory or a tests jar. */
    static boolean isTestCode(URL url) {
        String u = url.toString();
        return u.contains("/test-classes/") || u.contains("-tests.jar!");
    }

    private static boolean isOptionsClassFile(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        return file.endsWith("Options.class") && !file.contains("$");
    }

    private static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }

    /**
     * The class's public static {@code ConfigOption} fields, in declaration order, without the
     * {@code @Deprecated} ones (Java aliases of an option another class declares and documents).
     */
    static List<Field> configOptionFields(Class<?> c) {
        return Arrays.stream(c.getDeclaredFields())
                .filter(f -> Modifier.isPublic(f.getModifiers()))
                .filter(f -> Modifier.isStatic(f.getModifiers()))
                .filter(f -> ConfigOption.class.isAssignableFrom(f.getType()))
                .filter(f -> !f.isAnnotationPresent(Deprecated.class))
                .collect(Collectors.toList());
    }

    private static String row(Field f) {
        ConfigOption<?> option;
        try {
            option = (ConfigOption<?>) f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + f, e);
        }
        StringBuilder key = new StringBuilder("`").append(option.key()).append("`");
        for (FallbackKey k : option.fallbackKeys()) {
            key.append("<br>(").append(k.isDeprecated() ? "deprecated: " : "also: ");
            key.append("`").append(k.getKey()).append("`)");
        }
        String description = new HtmlFormatter().format(option.description());
        return "| "
                + key
                + " | "
                + cell(typeName(f))
                + " | "
                + cell(defaultCell(option))
                + " | "
                + cell(description)
                + " |\n";
    }

    /** The option's value type from the field's declaration ({@code ConfigOption<T>}). */
    static String typeName(Field f) {
        Type t = f.getGenericType();
        if (!(t instanceof ParameterizedType)) {
            return "?";
        }
        Type arg = ((ParameterizedType) t).getActualTypeArguments()[0];
        if (arg instanceof Class<?> c) {
            if (c.isEnum()) {
                return "Enum: "
                        + Arrays.stream(c.getEnumConstants())
                                .map(v -> ((Enum<?>) v).name())
                                .collect(Collectors.joining(", "));
            }
            return c.getSimpleName();
        }
        if (arg instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            String inner =
                    Arrays.stream(p.getActualTypeArguments())
                            .map(
                                    a ->
                                            a instanceof Class<?> ac
                                                    ? ac.getSimpleName()
                                                    : a.getTypeName())
                            .collect(Collectors.joining(", "));
            return raw.getSimpleName() + "<" + inner + ">";
        }
        return arg.getTypeName();
    }

    private static String defaultText(Object value) {
        if (value instanceof Duration d) {
            return TimeUtils.formatWithHighestUnit(d);
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof List<?> l) {
            return l.stream().map(String::valueOf).collect(Collectors.joining(";"));
        }
        if (value instanceof Map<?, ?> m) {
            return m.entrySet().stream()
                    .map(e -> e.getKey() + ":" + e.getValue())
                    .collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    /** "–" without a default, "(empty string)" for "", else the default in backticks. */
    private static String defaultCell(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "–";
        }
        String text = defaultText(option.defaultValue());
        return text.isEmpty() ? "(empty string)" : "`" + text + "`";
    }

    /** A table cell: no line breaks, no unescaped column separators. */
    private static String cell(String text) {
        return text.replace("\r", "").replace("\n", "<br>").replace("|", "\\|");
    }

    /** What {@code s3-mergetree --help} prints (on stderr). */
    static String commandHelp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = new S3MergeTreeCommand(o, e).run(new String[] {"--help"});
        }
        if (code != 0) {
            throw new IllegalStateException("s3-mergetree --help exited with " + code);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    /**
     * The repository root: the nearest directory at or above the working directory that holds
     * {@code .ci/run} (surefire runs a module's tests in the module's directory).
     */
    static Path repositoryRoot() {
        Path dir = Paths.get("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve(".ci/run")) && Files.isDirectory(d.resolve("docs"))) {
                return d;
            }
        }
        throw new IllegalStateException(
                "no repository root (a directory with .ci/run and docs/) at or above " + dir);
    }
}
