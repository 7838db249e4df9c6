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

    /** The known names, sorted. */
    public Set<String> names() {
        return known.keySet();
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

    /** {@link #check} for each entry, in order; the checked values. */
    public Map<String, String> checkAll(Map<String, String> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((k, v) -> out.put(k, check(k, v)));
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
            out.add(
                    isBoolean(o)
                            ? ConfigOptions.key(o.key())
                                    .stringType()
                                    .noDefaultValue()
                                    .withDescription(o.description())
                            : o);
        }
        return out;
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
