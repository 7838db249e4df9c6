package io.github.s3mergetree.source.s3.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses ClickHouse text literals of composite values as they appear inside TSV/CSV fields: {@code
 * [1, 2]}, {@code ['a', NULL]}, {@code (1, 'x')}, {@code {'k': 1}}, nested. Scalars come back as
 * strings (quoted ones unescaped), NULL as null; {@link
 * io.github.s3mergetree.engine.convert.ValueConverter} then converts them to the column type.
 */
final class TextValues {
    private final String s;
    private int pos;

    private TextValues(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        TextValues p = new TextValues(text.strip());
        Object v = p.value();
        p.space();
        if (p.pos != p.s.length()) {
            throw new IllegalArgumentException(
                    "unexpected '" + p.s.substring(p.pos) + "' after a value in '" + text + "'");
        }
        return v;
    }

    private void space() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    private Object value() {
        space();
        if (pos >= s.length()) {
            throw new IllegalArgumentException("missing value in '" + s + "'");
        }
        char c = s.charAt(pos);
        if (c == '[' || c == '(') {
            char close = c == '[' ? ']' : ')';
            pos++;
            List<Object> out = new ArrayList<>();
            space();
            if (pos < s.length() && s.charAt(pos) == close) {
                pos++;
                return out;
            }
            while (true) {
                out.add(value());
                space();
                if (pos >= s.length()) {
                    throw new IllegalArgumentException("unclosed '" + c + "' in '" + s + "'");
                }
                char d = s.charAt(pos++);
                if (d == close) {
                    return out;
                }
                if (d != ',') {
                    throw new IllegalArgumentException(
                            "expected ',' or '" + close + "' in '" + s + "'");
                }
            }
        }
        if (c == '{') {
            pos++;
            Map<Object, Object> out = new LinkedHashMap<>();
            space();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return out;
            }
            while (true) {
                Object k = value();
                space();
                if (pos >= s.length() || s.charAt(pos++) != ':') {
                    throw new IllegalArgumentException("expected ':' in map '" + s + "'");
                }
                out.put(k, value());
                space();
                if (pos >= s.length()) {
                    throw new IllegalArgumentException("unclosed '{' in '" + s + "'");
                }
                char d = s.charAt(pos++);
                if (d == '}') {
                    return out;
                }
                if (d != ',') {
                    throw new IllegalArgumentException("expected ',' or '}' in '" + s + "'");
                }
            }
        }
        if (c == '\'' || c == '"') {
            pos++;
            StringBuilder b = new StringBuilder();
            while (pos < s.length()) {
                char d = s.charAt(pos++);
                if (d == '\\' && pos < s.length()) {
                    char e = s.charAt(pos++);
                    b.append(
                            switch (e) {
                                case 'n' -> '\n';
                                case 't' -> '\t';
                                case 'r' -> '\r';
                                case '0' -> '\0';
                                case 'b' -> '\b';
                                case 'f' -> '\f';
                                default -> e;
                            });
                } else if (d == c) {
                    return b.toString();
                } else {
                    b.append(d);
                }
            }
            throw new IllegalArgumentException("unclosed quote in '" + s + "'");
        }
        int start = pos;
        while (pos < s.length() && ",])}:".indexOf(s.charAt(pos)) < 0) {
            pos++;
        }
        String token = s.substring(start, pos).strip();
        return token.equals("NULL") || token.equals("null") ? null : token;
    }
}
