package io.github.s3mergetree.connector.settings;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;

/**
 * The settings a connector knows, for settings given by name and string value (a DataStream
 * builder's {@code setSetting}, SQL table options, the CLI's {@code --setting}), checked as
 * ClickHouse checks a query's {@code SETTINGS}: an unknown name is refused, naming the nearest
 * known one (a typo must not be ignored silently), and a boolean setting takes exactly what
 * ClickHouse's bool setting parser ({@code stringToBool}) takes: {@code 0}, {@code 1}, and {@code
 * true} or {@code false} in any case.
 *
 * <p>Why here: the source, the sink and the CLI take settings by name; one rule for all of them.
 */
@Internal
public final class NamedSettings {
    private final Map<String, ConfigOption<?>> known;

    private NamedSettings(Map<String, ConfigOption<?>> known) {
        this.known = known;
    }

    /** The settings named by {@code options}. */
    public static NamedSettings of(Collection<? extends ConfigOption<?>> options) {
        Map<String, ConfigOption<?>> known = new TreeMap<>();
        for (ConfigOption<?> o : options) {
            for (FallbackKey k : o.fallbackKeys()) {
                known.putIfAbsent(k.getKey(), o);
            }
        }
        for (ConfigOption<?> o : options) {
            known.put(o.key(), o);
        }
        return new NamedSettings(Collections.unmodifiableMap(known));
    }

    /** The settings named by the public static {@link ConfigOption} fields of a class. */
    public static NamedSettings ofFields(Class<?> optionsClass) {
        List<ConfigOption<?>> options = new ArrayList<>();
        for (Field f : optionsClass.getFields()) {
            if (Modifier.isStatic(f.getModifiers())
                    && ConfigOption.class.isAssignableFrom(f.getType())) {
                try {
                    options.add((ConfigOption<?>) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return of(options);
    }

    /** The known names (keys and deprecated keys), sorted. */
    public Set<String> names() {
        return known.keySet();
    }

    /**
     * The key of the option {@code name} names: {@code name} itself, or the current key when {@code
     * name} is a deprecated one (so that a setting given under its old name and one under its new
     * name are one setting).
     *
     * @throws IllegalArgumentException for an unknown name (naming the nearest known one)
     */
    public String keyOf(String name) {
        ConfigOption<?> option = known.get(name);
        if (option == null) {
            throw new IllegalArgumentException(unknownMessage(name));
        }
        return option.key();
    }

    /** Whether {@code name} is a known setting. */
    public boolean contains(String name) {
        return known.containsKey(name);
    }

    /**
     * Checks one setting and returns its value as the option parses it: a boolean as {@code true}
     * or {@code false}, anything else as given.
     *
     * @throws IllegalArgumentException for an unknown name (naming the nearest known one) or a
     *     boolean value ClickHouse would refuse
     */
    public String check(String name, String value) {
        ConfigOption<?> option = known.get(name);
        if (option == null) {
            throw new IllegalArgumentException(unknownMessage(name));
        }
        if (value != null && isBoolean(option)) {
            return Boolean.toString(parseBool(name, value));
        }
        return value;
    }

    /**
     * {@link #check} for each entry, in order; the checked values by their option's current key
     * ({@link #keyOf}).
     *
     * @throws IllegalArgumentException also when two entries name the same option (a key and its
     *     deprecated key) with different values
     */
    public Map<String, String> checkAll(Map<String, String> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> givenAs = new LinkedHashMap<>();
        settings.forEach(
                (k, v) -> {
                    String value = check(k, v);
                    String key = keyOf(k);
                    String earlier = givenAs.put(key, k);
                    if (earlier != null && !java.util.Objects.equals(out.get(key), value)) {
                        throw new IllegalArgumentException(
                                "'"
                                        + earlier
                                        + "' and '"
                                        + k
                                        + "' name the same setting ('"
                                        + key
                                        + "') with different values; give it once");
                    }
                    out.put(key, value);
                });
        return out;
    }

    /** {@code unknown setting 'x' (did you mean 'y'?)}, or the known names when none is near. */
    public String unknownMessage(String name) {
        return unknownMessage(name, known.keySet());
    }

    /** {@link #unknownMessage(String)} among {@code knownNames}. */
    public static String unknownMessage(String name, Collection<String> knownNames) {
        String nearest = nearest(name, knownNames);
        return "unknown setting '"
                + name
                + "'"
                + (nearest != null
                        ? " (did you mean '" + nearest + "'?)"
                        : " (known: " + String.join(", ", knownNames) + ")");
    }

    /**
     * The options with every boolean one replaced by a string option of the same key, for a SQL
     * factory's declared options: Flink's own boolean parsing takes only {@code true}/{@code
     * false}, so the value is left to {@link #check}.
     */
    public static java.util.Set<ConfigOption<?>> booleansAsStrings(
            Collection<? extends ConfigOption<?>> options) {
        java.util.Set<ConfigOption<?>> out = new java.util.HashSet<>();
        for (ConfigOption<?> o : options) {
            out.add(isBoolean(o) ? asString(o) : o);
        }
        return out;
    }

    /**
     * A string option of the same key, deprecated keys and description as {@code option}, without a
     * default: reads the value as written, under the key or a deprecated one.
     */
    public static ConfigOption<String> asString(ConfigOption<?> option) {
        List<String> deprecated = new ArrayList<>();
        for (FallbackKey k : option.fallbackKeys()) {
            deprecated.add(k.getKey());
        }
        return ConfigOptions.key(option.key())
                .stringType()
                .noDefaultValue()
                .withDeprecatedKeys(deprecated.toArray(new String[0]))
                .withDescription(option.description());
    }

    /**
     * ClickHouse's {@code stringToBool}: {@code 0} and {@code 1}, {@code true} and {@code false} in
     * any case; nothing else (no spaces, no {@code yes}, no {@code 2}).
     *
     * @throws IllegalArgumentException naming the setting and the value
     */
    public static boolean parseBool(String name, String value) {
        if ("0".equals(value) || "false".equalsIgnoreCase(value)) {
            return false;
        }
        if ("1".equals(value) || "true".equalsIgnoreCase(value)) {
            return true;
        }
        throw new IllegalArgumentException(
                "Cannot parse bool from string '"
                        + value
                        + "' for setting '"
                        + name
                        + "': expected 0, 1, true or false");
    }

    /** Whether the option holds a boolean (probed through Flink's own parsing). */
    public static boolean isBoolean(ConfigOption<?> option) {
        Configuration probe = new Configuration();
        probe.setString(option.key(), "true");
        try {
            return probe.get(option) instanceof Boolean;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The known name nearest to {@code name} by edit distance, if near enough to be a typo (at most
     * a third of its length, at least 2 edits), else null.
     */
    static String nearest(String name, Collection<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String lower = name.toLowerCase(Locale.ROOT);
        for (String n : names) {
            int d = distance(lower, n.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return best != null && bestDistance <= Math.max(2, name.length() / 3) ? best : null;
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
