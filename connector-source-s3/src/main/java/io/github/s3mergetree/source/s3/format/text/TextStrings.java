package io.github.s3mergetree.source.s3.format.text;

/**
 * Reading the string forms of ClickHouse's text formats from a {@link TextCursor}, byte for byte as
 * {@code src/IO/ReadHelpers.cpp} does: TSV's escaped strings, CSV fields, quoted literals and JSON
 * strings. The bytes go into a {@link ByteBuf} unchanged (no charset decoding), escape sequences
 * resolved.
 */
final class TextStrings {
    private TextStrings() {}

    private static final byte[] UNHEX = new byte[256];

    static {
        java.util.Arrays.fill(UNHEX, (byte) 0xFF);
        for (int c = '0'; c <= '9'; c++) {
            UNHEX[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            UNHEX[c] = (byte) (c - 'a' + 10);
            UNHEX[c - 'a' + 'A'] = (byte) (c - 'a' + 10);
        }
    }

    /** ClickHouse's {@code unhex}: a hex digit's value, 0xFF for any other byte. */
    static int unhex(int c) {
        return UNHEX[c & 0xFF] & 0xFF;
    }

    /** ClickHouse's {@code parseEscapeSequence}: the byte a one-character escape stands for. */
    static int escapeChar(int c) {
        return switch (c) {
            case 'a' -> 7;
            case 'b' -> '\b';
            case 'e' -> 0x1B;
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'v' -> 0x0B;
            case '0' -> 0;
            default -> c;
        };
    }

    /**
     * ClickHouse's {@code parseComplexEscapeSequence}, at a backslash: {@code \xHH}, {@code \N}
     * (nothing), the one-character escapes, and any other character kept with its backslash ({@code
     * \%} stays {@code \%}) unless it is a quote, backslash, slash, {@code =} or a control
     * character.
     */
    static void complexEscape(TextCursor in, ByteBuf out) {
        in.pos++; // the backslash
        if (in.eof()) {
            throw new TextParseException("Cannot parse escape sequence");
        }
        int c = in.buf[in.pos] & 0xFF;
        if (c == 'x') {
            in.pos++;
            int hi = in.peek();
            if (hi < 0) {
                throw new TextParseException("Cannot parse escape sequence");
            }
            in.pos++;
            int lo = in.peek();
            if (lo < 0) {
                throw new TextParseException("Cannot parse escape sequence");
            }
            in.pos++;
            out.add((unhex(hi) * 16 + unhex(lo)) & 0xFF);
            return;
        }
        in.pos++;
        if (c == 'N') {
            return; // \N inside a value: nothing
        }
        int d = escapeChar(c);
        if (d != '\\' && d != '\'' && d != '"' && d != '`' && d != '/' && d != '=' && d > 31) {
            out.add('\\');
        }
        out.add(d);
    }

    /** TSV: up to an unescaped tab or newline (not consumed), escapes resolved. */
    static void readEscaped(TextCursor in, ByteBuf out) {
        while (in.pos < in.end || in.fill()) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            int start = p;
            while (p < e) {
                byte c = b[p];
                if (c == '\t' || c == '\n' || c == '\\') {
                    break;
                }
                p++;
            }
            out.add(b, start, p - start);
            in.pos = p;
            if (p == e) {
                continue;
            }
            if (b[p] == '\\') {
                complexEscape(in, out);
                continue;
            }
            return;
        }
    }

    /** Skips a TSV field. */
    static void skipEscaped(TextCursor in, ByteBuf scratch) {
        scratch.clear();
        readEscaped(in, scratch);
    }

    /**
     * ClickHouse's {@code readCSVStringInto}: a quoted field ({@code "..."} with {@code ""} for a
     * quote; a missing closing quote ends the field at the end of the input, as in ClickHouse) or
     * an unquoted one up to the delimiter, {@code \n} or {@code \r\n} ({@code \r} alone is data),
     * its trailing blanks dropped (except, as in ClickHouse, at the very end of the input).
     */
    static void readCsv(TextCursor in, ByteBuf out, TextSettings s) {
        if (in.eof()) {
            return;
        }
        byte delimiter = (byte) s.delimiter();
        byte q = in.buf[in.pos];
        if (q == delimiter) {
            return;
        }
        if ((s.allowSingleQuotes() && q == '\'') || (s.allowDoubleQuotes() && q == '"')) {
            in.pos++;
            while (in.pos < in.end || in.fill()) {
                byte[] b = in.buf;
                int p = in.pos;
                int e = in.end;
                int start = p;
                while (p < e && b[p] != q) {
                    p++;
                }
                out.add(b, start, p - start);
                in.pos = p;
                if (p == e) {
                    continue;
                }
                in.pos++; // the quote
                if (in.eof()) {
                    return;
                }
                if (in.buf[in.pos] == q) {
                    out.add(q);
                    in.pos++;
                    continue;
                }
                return;
            }
            return;
        }
        while (in.pos < in.end || in.fill()) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            int start = p;
            while (p < e) {
                byte c = b[p];
                if (c == delimiter || c == '\r' || c == '\n') {
                    break;
                }
                p++;
            }
            out.add(b, start, p - start);
            in.pos = p;
            if (p == e) {
                continue;
            }
            if (b[p] == '\r') {
                in.pos++;
                if (!in.eof() && in.buf[in.pos] != '\n') {
                    out.add('\r');
                    continue;
                }
            }
            out.trimTrailingBlanks(); // as ClickHouse: only where the field ends, not at the end
            return;
        }
    }

    /**
     * A string in {@code quote}s with backslash escapes (and a doubled quote for one quote when
     * {@code sqlStyle}), as in ClickHouse's {@code readAnyQuotedStringInto}.
     */
    static void readQuoted(TextCursor in, ByteBuf out, char quote, boolean sqlStyle) {
        if (!in.check(quote)) {
            throw new TextParseException(
                    "Cannot parse quoted string: expected opening quote '"
                            + quote
                            + "', got '"
                            + (in.eof() ? "EOF" : in.snippet(1))
                            + "'");
        }
        byte q = (byte) quote;
        while (in.pos < in.end || in.fill()) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            int start = p;
            while (p < e && b[p] != q && b[p] != '\\') {
                p++;
            }
            out.add(b, start, p - start);
            in.pos = p;
            if (p == e) {
                continue;
            }
            if (b[p] == q) {
                in.pos++;
                if (sqlStyle && in.at(quote)) {
                    out.add(q);
                    in.pos++;
                    continue;
                }
                return;
            }
            complexEscape(in, out);
        }
        throw new TextParseException("Cannot parse quoted string: expected closing quote");
    }

    /**
     * A JSON string with JSON escapes ({@code \\uXXXX} into UTF-8), as {@code readJSONStringInto}.
     */
    static void readJson(TextCursor in, ByteBuf out) {
        if (!in.check('"')) {
            throw new TextParseException("Cannot parse JSON string: expected opening quote");
        }
        while (in.pos < in.end || in.fill()) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            int start = p;
            while (p < e && b[p] != '"' && b[p] != '\\') {
                p++;
            }
            out.add(b, start, p - start);
            in.pos = p;
            if (p == e) {
                continue;
            }
            if (b[p] == '"') {
                in.pos++;
                return;
            }
            jsonEscape(in, out);
        }
        throw new TextParseException("Cannot parse JSON string: expected closing quote");
    }

    private static void jsonEscape(TextCursor in, ByteBuf out) {
        in.pos++;
        if (in.eof()) {
            throw new TextParseException("Cannot parse escape sequence");
        }
        int c = in.buf[in.pos] & 0xFF;
        switch (c) {
            case '"', '\\', '/' -> out.add(c);
            case 'b' -> out.add('\b');
            case 'f' -> out.add('\f');
            case 'n' -> out.add('\n');
            case 'r' -> out.add('\r');
            case 't' -> out.add('\t');
            case 'u' -> {
                in.pos++;
                int cp = hex4(in);
                if (cp < 0) {
                    throw new TextParseException(
                            "Cannot parse escape sequence: less than four bytes after \\u");
                }
                if (cp <= 0x7F) {
                    out.add(cp);
                } else if (cp <= 0x7FF) {
                    out.add(((cp >> 6) & 0x1F) | 0xC0);
                    out.add((cp & 0x3F) | 0x80);
                } else if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (!in.checkAscii("\\u")) {
                        throw new TextParseException(
                                "Cannot parse escape sequence: missing second part of surrogate"
                                        + " pair");
                    }
                    int lo = hex4(in);
                    if (lo < 0) {
                        throw new TextParseException(
                                "Cannot parse escape sequence: less than four bytes after \\u of"
                                        + " second part of surrogate pair");
                    }
                    if (lo < 0xDC00 || lo > 0xDFFF) {
                        throw new TextParseException(
                                "Incorrect surrogate pair of unicode escape sequences in JSON");
                    }
                    int full = 0x10000 + (cp - 0xD800) * 1024 + (lo - 0xDC00);
                    out.add(((full >> 18) & 0x07) | 0xF0);
                    out.add(((full >> 12) & 0x3F) | 0x80);
                    out.add(((full >> 6) & 0x3F) | 0x80);
                    out.add((full & 0x3F) | 0x80);
                } else {
                    out.add(((cp >> 12) & 0x0F) | 0xE0);
                    out.add(((cp >> 6) & 0x3F) | 0x80);
                    out.add((cp & 0x3F) | 0x80);
                }
                return;
            }
            default -> out.add(c); // as ClickHouse: an unknown escape is the character
        }
        in.pos++;
    }

    /** Four hex digits (consumed) as a number, or -1 if fewer than four bytes remain. */
    private static int hex4(TextCursor in) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int c = in.peek();
            if (c < 0) {
                return -1;
            }
            in.pos++;
            v = (v << 4) + unhex(c);
        }
        return v & 0xFFFF;
    }

    /**
     * ClickHouse's {@code skipWhitespaceIfAny}: spaces, tabs, CR, LF, form feeds, vertical tabs.
     */
    static void skipWhitespace(TextCursor in) {
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) {
                in.pos++;
            } else {
                return;
            }
        }
    }

    /** CSV's {@code skipWhitespacesAndTabs}. */
    static void skipBlanks(TextCursor in) {
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c == ' ' || c == '\t') {
                in.pos++;
            } else {
                return;
            }
        }
    }

    /**
     * Skips a JSON value of an unknown key, as ClickHouse's {@code skipJSONField}: strings,
     * numbers, {@code null}/{@code true}/{@code false}, arrays and objects.
     */
    static void skipJsonValue(TextCursor in, String key, ByteBuf scratch, int depth) {
        if (depth > 1000) {
            throw new TextParseException(
                    "JSON value of key '" + key + "' is nested deeper than 1000 levels");
        }
        int c = in.peek();
        if (c < 0) {
            throw new TextParseException("Unexpected EOF for key '" + key + "'");
        }
        if (c == '"') {
            scratch.clear();
            readJson(in, scratch);
        } else if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
            in.check('+');
            if (!Numbers.skipFloat(in)) {
                throw new TextParseException("Expected a number field for key '" + key + "'");
            }
        } else if (c == 'n') {
            expectWord(in, "null");
        } else if (c == 't') {
            expectWord(in, "true");
        } else if (c == 'f') {
            expectWord(in, "false");
        } else if (c == '[') {
            in.pos++;
            skipWhitespace(in);
            if (in.check(']')) {
                return;
            }
            while (true) {
                skipJsonValue(in, key, scratch, depth + 1);
                skipWhitespace(in);
                if (in.check(',')) {
                    skipWhitespace(in);
                } else if (in.check(']')) {
                    return;
                } else {
                    throw new TextParseException("Unexpected symbol for key '" + key + "'");
                }
            }
        } else if (c == '{') {
            in.pos++;
            skipWhitespace(in);
            while (!in.eof() && !in.at('}')) {
                if (!in.at('"')) {
                    throw new TextParseException("Unexpected symbol for key '" + key + "'");
                }
                scratch.clear();
                readJson(in, scratch);
                skipWhitespace(in);
                if (!in.check(':')) {
                    throw new TextParseException("Unexpected symbol for key '" + key + "'");
                }
                skipWhitespace(in);
                skipJsonValue(in, key, scratch, depth + 1);
                skipWhitespace(in);
                if (in.check(',')) {
                    skipWhitespace(in);
                }
            }
            if (in.eof()) {
                throw new TextParseException("Unexpected EOF for key '" + key + "'");
            }
            in.pos++;
        } else {
            throw new TextParseException(
                    "Unexpected symbol '" + in.snippet(1) + "' for key '" + key + "'");
        }
    }

    /** Consumes {@code word} or fails like {@code assertString}. */
    static void expectWord(TextCursor in, String word) {
        for (int i = 0; i < word.length(); i++) {
            if (!in.check(word.charAt(i))) {
                throw TextParseException.expected(word, in);
            }
        }
    }

    /**
     * A JSON object or array kept as text, as {@code readJSONObjectOrArrayPossiblyInvalid} does for
     * a String column ({@code input_format_json_read_objects_as_strings}): brackets balanced
     * outside strings, the bytes copied unchanged.
     */
    static void readJsonRaw(TextCursor in, ByteBuf out, char open, char close) {
        if (!in.at(open)) {
            throw new TextParseException(
                    "JSON object/array should start with corresponding opening bracket");
        }
        out.add(open);
        in.pos++;
        long balance = 1;
        boolean quotes = false;
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            out.add(c);
            in.pos++;
            if (c == '\\') {
                if (!in.eof()) {
                    out.add(in.buf[in.pos]);
                    in.pos++;
                }
                continue;
            }
            if (c == '"') {
                quotes = !quotes;
            } else if (!quotes && (c == open || c == close)) {
                balance += c == open ? 1 : -1;
                if (balance == 0) {
                    return;
                }
            }
        }
        throw new TextParseException(
                "JSON object/array should have equal number of opening and closing brackets");
    }
}
