package io.github.s3mergetree.examples.jobs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --key value} arguments of an example job's {@code main}.
 *
 * <p>Why not Flink's {@code JobArgs}: it moved from {@code org.apache.flink.api.java.utils} (Flink
 * 1.x) to {@code org.apache.flink.util} (Flink 2.x), so a job using either fails with a {@code
 * NoClassDefFoundError} on the other line; these jobs run on both.
 */
public final class JobArgs {
    private final Map<String, String> values;

    private JobArgs(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses {@code --key value} pairs ({@code -key} too); a key followed by another key or by
     * nothing is a flag with the value {@code true}.
     *
     * @throws IllegalArgumentException naming an argument that is not a key
     */
    public static JobArgs fromArgs(String... args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String key;
            if (a.startsWith("--") && a.length() > 2) {
                key = a.substring(2);
            } else if (a.startsWith("-") && a.length() > 1 && !isNumber(a)) {
                key = a.substring(1);
            } else {
                throw new IllegalArgumentException(
                        "expected --key value arguments, got '" + a + "' at position " + i);
            }
            if (i + 1 < args.length && !isKey(args[i + 1])) {
                values.put(key, args[++i]);
            } else {
                values.put(key, "true");
            }
        }
        return new JobArgs(values);
    }

    private static boolean isKey(String a) {
        return a.startsWith("-") && a.length() > 1 && !isNumber(a);
    }

    private static boolean isNumber(String a) {
        try {
            Double.parseDouble(a);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Whether {@code --key} was given. */
    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** The value of {@code --key}, or null. */
    public String get(String key) {
        return values.get(key);
    }

    /** The value of {@code --key}, or {@code defaultValue}. */
    public String get(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    /**
     * The value of {@code --key}.
     *
     * @throws IllegalArgumentException when it is missing
     */
    public String getRequired(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("--" + key + " is required");
        }
        return v;
    }

    /** {@code --key} as an int. */
    public int getInt(String key) {
        String v = getRequired(key);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be an integer, got '" + v + "'");
        }
    }

    /** {@code --key} as a long, or {@code defaultValue}. */
    public long getLong(String key, long defaultValue) {
        if (!has(key)) {
            return defaultValue;
        }
        String v = values.get(key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be an integer, got '" + v + "'");
        }
    }

    /** {@code --key} as a boolean ({@code true}/{@code false}), or {@code defaultValue}. */
    public boolean getBoolean(String key, boolean defaultValue) {
        if (!has(key)) {
            return defaultValue;
        }
        String v = values.get(key);
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("--" + key + " must be true or false, got '" + v + "'");
    }

    @Override
    public String toString() {
        Map<String, String> shown = new LinkedHashMap<>(values);
        shown.replaceAll((k, v) -> k.contains("secret") ? "***" : v);
        return shown.toString();
    }
}
