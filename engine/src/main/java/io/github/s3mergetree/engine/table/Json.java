package io.github.s3mergetree.engine.table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the table's metadata needs (commit log entries, snapshots): objects, arrays,
 * strings, integers, booleans and null. Written compactly; parsed strictly, with the position of
 * the first error. Numbers are longs (the metadata holds no fractions).
 */
final class Json {
    private Json() {}

    /** Serializes maps, lists, strings, numbers, booleans and null. */
    static String write(Object value) {
        StringBuilder s = new StringBuilder(256);
        write(value, s);
        return s.toString();
    }

    private static void write(Object v, StringBuilder s) {
        if (v == null) {
            s.append("null");
        } else if (v instanceof String str) {
            s.append(PartLog.quote(str));
        } else if (v instanceof Number || v instanceof Boolean) {
            s.append(v);
        } else if (v instanceof Map<?, ?> m) {
            s.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    s.append(',');
                }
                first = false;
                s.append(PartLog.quote(e.getKey().toString())).append(':');
                write(e.getValue(), s);
            }
            s.append('}');
        } else if (v instanceof List<?> l) {
            s.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    s.append(',');
                }
                write(l.get(i), s);
            }
            s.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
        }
    }

    /** Parses {@code text}; {@code what} names it in errors. */
    static Object parse(String text, String what) {
        Parser p = new Parser(text, what);
        p.skipSpace();
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("end of input");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object v, String what) {
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException(what + " is not a JSON object: " + v);
        }
        return (Map<String, Object>) v;
    }

    static List<?> array(Map<String, Object> o, String key) {
        Object v = o.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw new IllegalArgumentException("'" + key + "' is not an array: " + v);
        }
        return l;
    }

    static String string(Map<String, Object> o, String key) {
        Object v = o.get(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException("'" + key + "' is not a string: " + v);
        }
        return (String) v;
    }

    static long number(Map<String, Object> o, String key, long defaultValue) {
        Object v = o.get(key);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof Long l)) {
            throw new IllegalArgumentException("'" + key + "' is not an integer: " + v);
        }
        return l;
    }

    private static final class Parser {
        final String s;
        final String what;
        int pos;

        Parser(String s, String what) {
            this.s = s;
            this.what = what;
        }

        IllegalArgumentException error(String expected) {
            return new IllegalArgumentException(
                    what
                            + ": invalid JSON at offset "
                            + pos
                            + ": expected "
                            + expected
                            + (pos < s.length() ? ", found '" + s.charAt(pos) + "'" : ""));
        }

        void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("a value");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return obj();
                case '[':
                    return arr();
                case '"':
                    return str();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return num();
            }
        }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error(word);
            }
            pos += word.length();
            return v;
        }

        Long num() {
            int start = pos;
            if (pos < s.length() && s.charAt(pos) == '-') {
                pos++;
            }
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (start == pos || (pos == start + 1 && s.charAt(start) == '-')) {
                throw error("a value");
            }
            try {
                return Long.parseLong(s.substring(start, pos));
            } catch (NumberFormatException e) {
                throw error("an integer");
            }
        }

        String str() {
            pos++;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("'\"'");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("an escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("4 hex digits");
                        }
                        b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("an escape");
                }
            }
        }

        Map<String, Object> obj() {
            pos++;
            Map<String, Object> m = new LinkedHashMap<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return m;
            }
            while (true) {
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != '"') {
                    throw error("a key");
                }
                String k = str();
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != ':') {
                    throw error("':'");
                }
                pos++;
                skipSpace();
                m.put(k, value());
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                if (pos < s.length() && s.charAt(pos) == '}') {
                    pos++;
                    return m;
                }
                throw error("',' or '}'");
            }
        }

        List<Object> arr() {
            pos++;
            List<Object> l = new ArrayList<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return l;
            }
            while (true) {
                skipSpace();
                l.add(value());
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                if (pos < s.length() && s.charAt(pos) == ']') {
                    pos++;
                    return l;
                }
                throw error("',' or ']'");
            }
        }
    }
}
