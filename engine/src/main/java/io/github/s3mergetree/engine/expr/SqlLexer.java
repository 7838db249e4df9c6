package io.github.s3mergetree.engine.expr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Splits ClickHouse SQL text into tokens: bare words, quoted identifiers ({@code `x`} or {@code
 * "x"}), numbers, string literals and punctuation, skipping whitespace and comments ({@code --
 * ...}, {@code # ...} at a line start is not supported, {@code /* ... *}{@code /}, nested as in
 * ClickHouse).
 *
 * <p>Why a separate lexer: both the expression parser and the {@code CREATE TABLE} parser work on
 * the same token stream and report errors at exact character offsets; every token remembers its
 * start and end offset in the source text.
 */
public final class SqlLexer {

    /** The kind of a token. */
    public enum Type {
        /** An unquoted word: identifier or keyword. */
        BARE_WORD,
        /** A {@code `back-quoted`} or {@code "double-quoted"} identifier (text is unescaped). */
        QUOTED_IDENTIFIER,
        /** A numeric literal as written (text is the raw source). */
        NUMBER,
        /** A {@code 'string'} literal (text is unescaped). */
        STRING,
        OPEN_PAREN,
        CLOSE_PAREN,
        OPEN_BRACKET,
        CLOSE_BRACKET,
        COMMA,
        DOT,
        SEMICOLON,
        PLUS,
        MINUS,
        STAR,
        SLASH,
        PERCENT,
        EQUALS,
        /** Any other operator ({@code <}, {@code >=}, {@code ||}, {@code ::}, ...). */
        OPERATOR,
        /** End of input. */
        EOF
    }

    /**
     * A token.
     *
     * @param type the kind
     * @param text the unescaped text of words, quoted identifiers and strings; the raw text
     *     otherwise
     * @param start offset of the first character in the source
     * @param end offset just after the last character in the source
     */
    public record Token(Type type, String text, int start, int end) {
        /** Whether this is the bare word {@code word}, compared case-insensitively. */
        public boolean isWord(String word) {
            return type == Type.BARE_WORD && text.equalsIgnoreCase(word);
        }

        /** Whether this token can name something: a bare word or a quoted identifier. */
        public boolean isIdentifier() {
            return type == Type.BARE_WORD || type == Type.QUOTED_IDENTIFIER;
        }

        /** A short rendering for error messages. */
        public String describe() {
            return switch (type) {
                case EOF -> "end of input";
                case STRING -> "string literal '" + text + "'";
                case QUOTED_IDENTIFIER -> "identifier `" + text + "`";
                default -> "'" + text + "'";
            };
        }
    }

    private final String s;
    private int pos;
    private final List<Token> tokens = new ArrayList<>();

    private SqlLexer(String s) {
        this.s = s;
    }

    /**
     * Tokenizes all of {@code text}; the last token is {@link Type#EOF}.
     *
     * @throws ExprException (syntax) on an unterminated literal or comment or a malformed number
     */
    public static List<Token> tokenize(String text) {
        SqlLexer l = new SqlLexer(text);
        l.run();
        return Collections.unmodifiableList(l.tokens);
    }

    private void run() {
        while (true) {
            skipSpace();
            if (pos >= s.length()) {
                tokens.add(new Token(Type.EOF, "", s.length(), s.length()));
                return;
            }
            int start = pos;
            char c = s.charAt(pos);
            if (identStart(c)
                    || (c == '$'
                            && pos + 1 < s.length()
                            && s.charAt(pos + 1) != '$'
                            && identPart(s.charAt(pos + 1)))) {
                // as ClickHouse: '$' may also start an identifier ($a), not a $$ heredoc
                pos++;
                while (pos < s.length() && identPart(s.charAt(pos))) {
                    pos++;
                }
                add(Type.BARE_WORD, s.substring(start, pos), start);
            } else if (c == '`' || c == '"') {
                add(Type.QUOTED_IDENTIFIER, quoted(c), start);
            } else if (c == '\'') {
                add(Type.STRING, quoted('\''), start);
            } else if (Character.isDigit(c)
                    || (c == '.'
                            && pos + 1 < s.length()
                            && Character.isDigit(s.charAt(pos + 1))
                            && !previousIsIdentifierLike())) {
                number();
                add(Type.NUMBER, s.substring(start, pos), start);
            } else {
                pos++;
                switch (c) {
                    case '(' -> add(Type.OPEN_PAREN, "(", start);
                    case ')' -> add(Type.CLOSE_PAREN, ")", start);
                    case '[' -> add(Type.OPEN_BRACKET, "[", start);
                    case ']' -> add(Type.CLOSE_BRACKET, "]", start);
                    case ',' -> add(Type.COMMA, ",", start);
                    case '.' -> add(Type.DOT, ".", start);
                    case ';' -> add(Type.SEMICOLON, ";", start);
                    case '+' -> add(Type.PLUS, "+", start);
                    case '-' -> {
                        if (match('>')) {
                            add(Type.OPERATOR, "->", start);
                        } else {
                            add(Type.MINUS, "-", start);
                        }
                    }
                    case '*' -> add(Type.STAR, "*", start);
                    case '/' -> add(Type.SLASH, "/", start);
                    case '%' -> add(Type.PERCENT, "%", start);
                    case '=' -> {
                        if (match('=')) {
                            add(Type.OPERATOR, "==", start);
                        } else {
                            add(Type.EQUALS, "=", start);
                        }
                    }
                    case '<', '>', '!', '|', ':', '?', '^', '&', '@', '{', '}', '$' -> {
                        while (pos < s.length()
                                && "<>=!|:&".indexOf(s.charAt(pos)) >= 0
                                && "<>!|:&".indexOf(c) >= 0) {
                            pos++;
                        }
                        add(Type.OPERATOR, s.substring(start, pos), start);
                    }
                    default ->
                            throw ExprException.syntax("Unexpected character '" + c + "'", start);
                }
            }
        }
    }

    private boolean previousIsIdentifierLike() {
        if (tokens.isEmpty()) {
            return false;
        }
        Token t = tokens.get(tokens.size() - 1);
        return t.end() == pos
                && (t.type() == Type.BARE_WORD
                        || t.type() == Type.QUOTED_IDENTIFIER
                        || t.type() == Type.CLOSE_PAREN
                        || t.type() == Type.CLOSE_BRACKET);
    }

    private boolean match(char c) {
        if (pos < s.length() && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void add(Type type, String text, int start) {
        tokens.add(new Token(type, text, start, pos));
    }

    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '-' && s.startsWith("--", pos)) {
                while (pos < s.length() && s.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && s.startsWith("/*", pos)) {
                int start = pos;
                int depth = 0;
                while (true) {
                    if (pos >= s.length()) {
                        throw ExprException.syntax("Unterminated /* comment", start);
                    }
                    if (s.startsWith("/*", pos)) {
                        depth++;
                        pos += 2;
                    } else if (s.startsWith("*/", pos)) {
                        depth--;
                        pos += 2;
                        if (depth == 0) {
                            break;
                        }
                    } else {
                        pos++;
                    }
                }
            } else {
                return;
            }
        }
    }

    private void number() {
        int start = pos;
        if (s.startsWith("0x", pos) || s.startsWith("0X", pos)) {
            pos += 2;
            int d = pos;
            while (pos < s.length() && Character.digit(s.charAt(pos), 16) >= 0) {
                pos++;
            }
            if (d == pos) {
                throw ExprException.syntax("Malformed hexadecimal literal", start);
            }
        } else if ((s.startsWith("0b", pos) || s.startsWith("0B", pos))
                && pos + 2 < s.length()
                && (s.charAt(pos + 2) == '0' || s.charAt(pos + 2) == '1')) {
            pos += 2;
            while (pos < s.length() && (s.charAt(pos) == '0' || s.charAt(pos) == '1')) {
                pos++;
            }
        } else {
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                pos++;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                int save = pos;
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    pos++;
                }
                int d = pos;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (d == pos) {
                    pos = save;
                }
            }
        }
        if (pos < s.length() && identPart(s.charAt(pos))) {
            throw ExprException.syntax(
                    "Malformed number '" + s.substring(start, pos + 1) + "'", start);
        }
    }

    private String quoted(char q) {
        int start = pos;
        StringBuilder b = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= s.length()) {
                throw ExprException.syntax(
                        q == '\''
                                ? "Unterminated string literal"
                                : "Unterminated quoted identifier",
                        start);
            }
            char c = s.charAt(pos++);
            if (c == q) {
                if (pos < s.length() && s.charAt(pos) == q) {
                    b.append(q);
                    pos++;
                    continue;
                }
                return b.toString();
            }
            if (c == '\\') {
                if (pos >= s.length()) {
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case '0' -> b.append('\0');
                    case 'a' -> b.append('\007');
                    case 'v' -> b.append('\013');
                    case 'e' -> b.append('\033');
                    case 'x' -> {
                        if (pos + 2 <= s.length()
                                && Character.digit(s.charAt(pos), 16) >= 0
                                && Character.digit(s.charAt(pos + 1), 16) >= 0) {
                            b.append((char) Integer.parseInt(s.substring(pos, pos + 2), 16));
                            pos += 2;
                        } else {
                            b.append('x');
                        }
                    }
                    default -> b.append(e);
                }
                continue;
            }
            b.append(c);
        }
    }

    static boolean identStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c > 0x7F;
    }

    static boolean identPart(char c) {
        return identStart(c) || (c >= '0' && c <= '9') || c == '$';
    }

    /** Whether {@code name} can be written without quotes (a plain ASCII identifier). */
    public static boolean isPlainIdentifier(String name) {
        if (name.isEmpty()) {
            return false;
        }
        char c0 = name.charAt(0);
        if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || c == '_'
                    || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    /** {@code name} in back quotes, with back quotes and backslashes escaped. */
    public static String backQuote(String name) {
        StringBuilder b = new StringBuilder(name.length() + 2).append('`');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '`' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('`').toString();
    }

    /** A ClickHouse string literal for {@code value}. */
    public static String quoteString(String value) {
        StringBuilder b = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\'' -> b.append("\\'");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\0' -> b.append("\\0");
                default -> b.append(c);
            }
        }
        return b.append('\'').toString();
    }
}
