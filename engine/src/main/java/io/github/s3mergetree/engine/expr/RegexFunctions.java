package io.github.s3mergetree.engine.expr;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The regular-expression functions {@code match(s, re)}, {@code extract(s, re)}, {@code
 * replaceRegexpOne(s, re, r)} and {@code replaceRegexpAll(s, re, r)}, with RE2 syntax and semantics
 * as ClickHouse (which uses RE2) evaluates them: through RE2/J over the decoded text (RE2/J's
 * matching of UTF-8 byte arrays is wrong for multi-byte characters: {@code ^.{3}$} matches a
 * 7-character string there), {@code .} matching a newline too; invalid UTF-8 in the input is
 * matched as U+FFFD. The pattern and the replacement must be constants; in the replacement {@code
 * \0}..{@code \9} insert the whole match or a group and {@code \\} a backslash. {@code extract}
 * returns the first group if the pattern has one, else the whole match, or an empty string; an
 * empty pattern replaces nothing.
 */
final class RegexFunctions {
    private RegexFunctions() {}

    static void register() {
        Functions.register("match", false, RegexFunctions::bindMatch, "REGEXP_MATCHES");
        Functions.register("extract", false, RegexFunctions::bindExtract);
        Functions.register(
                "replaceRegexpOne",
                false,
                (a, t, p) -> bindReplace("replaceRegexpOne", false, a, t, p));
        Functions.register(
                "replaceRegexpAll",
                false,
                (a, t, p) -> bindReplace("replaceRegexpAll", true, a, t, p),
                "REGEXP_REPLACE");
    }

    private static void checkHaystack(String fn, DataType t, int pos) {
        if (t.kind() != TypeKind.STRING && t.kind() != TypeKind.FIXED_STRING) {
            throw Functions.illegalType(t, 0, fn, pos);
        }
    }

    private static Pattern compile(String fn, String re, int pos) {
        try {
            return Pattern.compile(re, Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw ExprException.invalid(
                    "OptimizedRegularExpression: cannot compile re2: "
                            + re
                            + ", error: "
                            + e.getDescription()
                            + " (function "
                            + fn
                            + ")",
                    pos);
        }
    }

    /** Row {@code i} as text (a FixedString with its zero padding, as ClickHouse sees it). */
    private static String row(ConversionFunctions.Strings s, int i) {
        int st = s.start(i);
        int len = s.s != null ? s.s.length(i) : s.width;
        return new String(s.bytes, st, len, StandardCharsets.UTF_8);
    }

    private static Functions.Bound bindMatch(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 2) {
            throw Functions.argCount("match", args.size(), "2", pos);
        }
        checkHaystack("match", types.get(0), pos);
        Pattern p = compile("match", Functions.constString(args, 1, "match", "pattern", pos), pos);
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    ConversionFunctions.Strings s = ConversionFunctions.Strings.of(cols[0]);
                    ByteColumn out = new ByteColumn(n);
                    Matcher m = p.matcher("");
                    for (int i = 0; i < n; i++) {
                        out.add(m.reset(row(s, i)).find() ? (byte) 1 : 0);
                    }
                    return out;
                });
    }

    private static Functions.Bound bindExtract(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 2) {
            throw Functions.argCount("extract", args.size(), "2", pos);
        }
        checkHaystack("extract", types.get(0), pos);
        Pattern p =
                compile("extract", Functions.constString(args, 1, "extract", "pattern", pos), pos);
        int group = p.groupCount() > 0 ? 1 : 0;
        return new Functions.Bound(
                DataTypes.STRING_TYPE,
                (cols, n, ctx) -> {
                    ConversionFunctions.Strings s = ConversionFunctions.Strings.of(cols[0]);
                    StringColumn out = new StringColumn(n);
                    Matcher m = p.matcher("");
                    for (int i = 0; i < n; i++) {
                        String b = row(s, i);
                        if (m.reset(b).find() && m.start(group) >= 0) {
                            out.add(b.substring(m.start(group), m.end(group)));
                        } else {
                            out.add("");
                        }
                    }
                    return out;
                });
    }

    /** A replacement: literal bytes and group numbers (negative numbers: none). */
    private record Replacement(List<String> literals, List<Integer> groups) {
        static Replacement parse(String r) {
            List<String> lits = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                char c = r.charAt(i);
                if (c == '\\' && i + 1 < r.length()) {
                    char d = r.charAt(i + 1);
                    if (d >= '0' && d <= '9') {
                        lits.add(cur.toString());
                        groups.add(d - '0');
                        cur.setLength(0);
                        i++;
                        continue;
                    }
                    // any other escaped character stands for itself (a doubled one: a backslash)
                    cur.append(d);
                    i++;
                    continue;
                }
                cur.append(c);
            }
            lits.add(cur.toString());
            groups.add(-1);
            return new Replacement(lits, groups);
        }

        void append(StringBuilder out, String b, Matcher m) {
            for (int k = 0; k < literals.size(); k++) {
                out.append(literals.get(k));
                int g = groups.get(k);
                if (g >= 0 && g <= m.groupCount() && m.start(g) >= 0) {
                    out.append(b, m.start(g), m.end(g));
                }
            }
        }
    }

    private static Functions.Bound bindReplace(
            String fn, boolean all, List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 3) {
            throw Functions.argCount(fn, args.size(), "3", pos);
        }
        checkHaystack(fn, types.get(0), pos);
        String re = Functions.constString(args, 1, fn, "pattern", pos);
        Pattern p = re.isEmpty() ? null : compile(fn, re, pos);
        String replacement = Functions.constString(args, 2, fn, "replacement", pos);
        Replacement r = Replacement.parse(replacement);
        // ClickHouse replaces a needle without regex metacharacters in a column as plain text,
        // the replacement taken literally (no group references, no unescaping)
        boolean literal = !re.isEmpty() && !args.get(0).isConstant() && isTrivial(re);
        if (p != null) {
            for (int g : r.groups()) {
                if (g > p.groupCount()) {
                    throw ExprException.invalid(
                            "Id "
                                    + g
                                    + " in replacement string is an invalid substitution,"
                                    + " regexp has only "
                                    + p.groupCount()
                                    + " capturing groups (function "
                                    + fn
                                    + ")",
                            pos);
                }
            }
        }
        return new Functions.Bound(
                DataTypes.STRING_TYPE,
                (cols, n, ctx) -> {
                    ConversionFunctions.Strings s = ConversionFunctions.Strings.of(cols[0]);
                    StringColumn out = new StringColumn(n);
                    Matcher m = p == null ? null : p.matcher("");
                    StringBuilder buf = new StringBuilder();
                    for (int i = 0; i < n; i++) {
                        if (m == null) {
                            out.appendRange(
                                    cols[0] instanceof StringColumn sc ? sc : toStrings(s, i),
                                    i,
                                    i + 1);
                            continue;
                        }
                        String b = row(s, i);
                        buf.setLength(0);
                        int copied = 0;
                        if (literal) {
                            int at;
                            while ((at = b.indexOf(re, copied)) >= 0) {
                                buf.append(b, copied, at).append(replacement);
                                copied = at + re.length();
                                if (!all) {
                                    break;
                                }
                            }
                            buf.append(b, copied, b.length());
                            out.add(buf.toString());
                            continue;
                        }
                        m.reset(b);
                        while (m.find()) {
                            if (m.start() == m.end()
                                    && m.end() < b.length()
                                    && b.charAt(m.end()) > 0x7F) {
                                throw ExprException.evaluation(
                                        fn
                                                + ": the pattern '"
                                                + re
                                                + "' matches empty text before the multi-byte"
                                                + " character at offset "
                                                + m.end()
                                                + " of '"
                                                + b
                                                + "', where ClickHouse splits the character's"
                                                + " bytes: not supported");
                            }
                            buf.append(b, copied, m.start());
                            r.append(buf, b, m);
                            copied = m.end();
                            if (!all) {
                                break;
                            }
                        }
                        buf.append(b, copied, b.length());
                        out.add(buf.toString());
                    }
                    return out;
                });
    }

    /** A one-row String column of row {@code i} of a FixedString (with its padding). */
    private static StringColumn toStrings(ConversionFunctions.Strings s, int i) {
        StringColumn c = new StringColumn(i + 1);
        for (int k = 0; k < i; k++) {
            c.add("");
        }
        c.add(s.bytes, s.start(i), s.width);
        return c;
    }

    /**
     * Whether {@code re} has no regular-expression metacharacters (ClickHouse's trivial needle).
     */
    static boolean isTrivial(String re) {
        for (int i = 0; i < re.length(); i++) {
            if ("\\^$.[]|()?*+{}".indexOf(re.charAt(i)) >= 0) {
                return false;
            }
        }
        return true;
    }
}
