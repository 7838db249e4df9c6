package io.github.s3mergetree.source.s3.objects;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A ClickHouse glob over object keys: {@code *} (any characters but {@code /}), {@code **} (any
 * characters), {@code ?} (one character but {@code /}), {@code {a,b,c}} (alternatives) and {@code
 * {N..M}} (the numbers N to M; zero-padded to the width of N when N has leading zeros, as
 * ClickHouse does).
 *
 * <p>Why the prefix expansion: S3 can only list by prefix. {@link #listPrefixes()} expands the
 * alternatives and ranges before the first wildcard into independent literal prefixes, so that a
 * pattern such as {@code logs/{2024..2026}/*.parquet} lists three small prefixes in parallel
 * instead of all of {@code logs/}.
 */
@org.apache.flink.annotation.PublicEvolving
public final class GlobPattern implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Expansions beyond this many prefixes fall back to the common literal prefix. */
    public static final int MAX_PREFIXES = 1000;

    private final String glob;
    private final Pattern regex;
    private final List<String> prefixes;

    private GlobPattern(String glob) {
        this.glob = glob;
        List<Token> tokens = tokenize(glob);
        StringBuilder re = new StringBuilder();
        for (Token t : tokens) {
            re.append(t.regex());
        }
        this.regex = Pattern.compile(re.toString(), Pattern.DOTALL);
        this.prefixes = expandPrefixes(tokens);
    }

    /** Parses {@code glob}; throws {@link IllegalArgumentException} naming it when malformed. */
    public static GlobPattern compile(String glob) {
        if (glob == null) {
            throw new IllegalArgumentException("glob must not be null");
        }
        return new GlobPattern(glob);
    }

    /** The glob as given. */
    public String glob() {
        return glob;
    }

    /** Whether {@code key} matches the whole glob. */
    public boolean matches(String key) {
        return regex.matcher(key).matches();
    }

    /** The literal prefix before the first glob construct. */
    public String literalPrefix() {
        StringBuilder b = new StringBuilder();
        for (Token t : tokenize(glob)) {
            if (t instanceof Literal l) {
                b.append(l.text);
            } else {
                break;
            }
        }
        return b.toString();
    }

    /**
     * Independent literal prefixes that together cover every matching key: alternatives and ranges
     * before the first wildcard expanded, none a prefix of another.
     */
    public List<String> listPrefixes() {
        return prefixes;
    }

    /** Whether the glob contains no construct at all (a single key). */
    public boolean isLiteral() {
        return tokenize(glob).stream().allMatch(t -> t instanceof Literal);
    }

    @Override
    public String toString() {
        return glob;
    }

    private static List<String> expandPrefixes(List<Token> tokens) {
        List<String> current = new ArrayList<>();
        current.add("");
        for (Token t : tokens) {
            if (t instanceof Literal l) {
                current.replaceAll(p -> p + l.text);
            } else if (t instanceof Alternatives a) {
                if ((long) current.size() * a.options.size() > MAX_PREFIXES) {
                    break;
                }
                List<String> next = new ArrayList<>(current.size() * a.options.size());
                for (String p : current) {
                    for (String o : a.options) {
                        next.add(p + o);
                    }
                }
                current = next;
            } else {
                break;
            }
        }
        // Drop prefixes covered by a shorter one, so that no key is listed twice.
        List<String> sorted = new ArrayList<>(new LinkedHashSet<>(current));
        sorted.sort(null);
        List<String> out = new ArrayList<>();
        for (String p : sorted) {
            if (out.isEmpty() || !p.startsWith(out.get(out.size() - 1))) {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    private interface Token {
        String regex();
    }

    private record Literal(String text) implements Token {
        @Override
        public String regex() {
            return Pattern.quote(text);
        }
    }

    private record Wildcard(String regex) implements Token {}

    private record Alternatives(List<String> options) implements Token {
        @Override
        public String regex() {
            StringBuilder b = new StringBuilder("(?:");
            for (int i = 0; i < options.size(); i++) {
                if (i > 0) {
                    b.append('|');
                }
                b.append(Pattern.quote(options.get(i)));
            }
            return b.append(')').toString();
        }
    }

    private static List<Token> tokenize(String glob) {
        List<Token> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < glob.length()) {
            char c = glob.charAt(i);
            if (c == '*' || c == '?' || c == '{') {
                if (lit.length() > 0) {
                    out.add(new Literal(lit.toString()));
                    lit.setLength(0);
                }
                if (c == '*') {
                    if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                        out.add(new Wildcard(".*"));
                        i += 2;
                    } else {
                        out.add(new Wildcard("[^/]*"));
                        i++;
                    }
                } else if (c == '?') {
                    out.add(new Wildcard("[^/]"));
                    i++;
                } else {
                    int close = glob.indexOf('}', i);
                    if (close < 0) {
                        throw new IllegalArgumentException(
                                "unclosed '{' at offset " + i + " in glob '" + glob + "'");
                    }
                    out.add(new Alternatives(options(glob, glob.substring(i + 1, close))));
                    i = close + 1;
                }
            } else {
                lit.append(c);
                i++;
            }
        }
        if (lit.length() > 0) {
            out.add(new Literal(lit.toString()));
        }
        return out;
    }

    private static List<String> options(String glob, String body) {
        int dots = body.indexOf("..");
        if (dots > 0 && body.indexOf(',') < 0) {
            String from = body.substring(0, dots).trim();
            String to = body.substring(dots + 2).trim();
            if (from.matches("\\d+") && to.matches("\\d+")) {
                long a = Long.parseLong(from);
                long b = Long.parseLong(to);
                if (a > b) {
                    long t = a;
                    a = b;
                    b = t;
                }
                if (b - a >= 1_000_000) {
                    throw new IllegalArgumentException(
                            "range {"
                                    + body
                                    + "} in glob '"
                                    + glob
                                    + "' has more than 10^6 values");
                }
                boolean pad =
                        (from.length() > 1 && from.startsWith("0"))
                                || (to.length() > 1 && to.startsWith("0"));
                int width = Math.max(from.length(), to.length());
                Set<String> values = new LinkedHashSet<>();
                for (long v = a; v <= b; v++) {
                    String s = Long.toString(v);
                    if (pad && s.length() < width) {
                        s = "0".repeat(width - s.length()) + s;
                    }
                    values.add(s);
                }
                return List.copyOf(values);
            }
        }
        List<String> out = new ArrayList<>();
        for (String o : body.split(",", -1)) {
            out.add(o);
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }
}
