package io.github.s3mergetree.cli.args;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed {@code --option value} / {@code --flag} arguments of one subcommand.
 *
 * <p>Each subcommand declares which options take a value, which are flags and which may repeat;
 * anything else is a {@link UsageException} naming the argument. Values are validated by the typed
 * getters, whose messages name the option and the bad value.
 */
public final class Args {
    private final Map<String, List<String>> values = new LinkedHashMap<>();

    private Args() {}

    /**
     * Parses {@code argv} (without the subcommand name).
     *
     * @param valued options that take one value ({@code --name value} or {@code --name=value})
     * @param flags options without a value
     * @param repeatable the subset of {@code valued} that may be given more than once
     */
    public static Args parse(
            List<String> argv, Set<String> valued, Set<String> flags, Set<String> repeatable)
            throws UsageException {
        Args a = new Args();
        for (int i = 0; i < argv.size(); i++) {
            String arg = argv.get(i);
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (flags.contains(name)) {
                if (value != null) {
                    throw new UsageException(name + " takes no value");
                }
                a.values.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= argv.size()) {
                        throw new UsageException(name + " needs a value");
                    }
                    value = argv.get(++i);
                }
                List<String> list = a.values.computeIfAbsent(name, k -> new ArrayList<>());
                if (!list.isEmpty() && !repeatable.contains(name)) {
                    throw new UsageException(name + " given twice");
                }
                list.add(value);
            } else {
                throw new UsageException("unknown option '" + name + "'");
            }
        }
        return a;
    }

    /** Whether the option or flag was given. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** The option's value, if given. */
    public Optional<String> get(String name) {
        List<String> v = values.get(name);
        return v == null ? Optional.empty() : Optional.of(v.get(v.size() - 1));
    }

    /** Every value of a repeatable option, in order. */
    public List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }

    /** The option's value; a {@link UsageException} when it is missing. */
    public String required(String name) throws UsageException {
        return get(name).orElseThrow(() -> new UsageException("missing " + name));
    }

    /** A positive integer option (at most {@link Integer#MAX_VALUE}). */
    public long positive(String name, long defaultValue) throws UsageException {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(v.get());
            if (n > 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(name + " must be a positive integer, not '" + v.get() + "'");
    }

    /** A duration option: {@code 500ms}, {@code 10s}, {@code 5min}, {@code 1h} or ISO-8601. */
    public Duration duration(String name, Duration defaultValue) throws UsageException {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return defaultValue;
        }
        Duration d = parseDuration(v.get());
        if (d == null || d.isNegative() || d.isZero()) {
            throw new UsageException(
                    name
                            + " must be a positive duration such as 500ms, 10s, 5min, not '"
                            + v.get()
                            + "'");
        }
        return d;
    }

    static Duration parseDuration(String s) {
        String t = s.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(java.util.Locale.ROOT));
            }
            int i = 0;
            while (i < t.length() && Character.isDigit(t.charAt(i))) {
                i++;
            }
            if (i == 0) {
                return null;
            }
            long n = Long.parseLong(t.substring(0, i));
            return switch (t.substring(i).trim()) {
                case "ms" -> Duration.ofMillis(n);
                case "", "s" -> Duration.ofSeconds(n);
                case "m", "min" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> null;
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            return null;
        }
    }
}
