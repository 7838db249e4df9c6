package io.github.s3mergetree.engine.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Input bytes never reach a message raw: {@link ValueConverter#escape}, {@link
 * ValueConverter#printable} and {@link ValueConverter#escapeBytes} turn control characters, C1
 * controls, lost bytes (U+FFFD) and invalid UTF-8 into escapes, keep everything else, and lose
 * nothing (the escaped text decodes back to the input).
 */
class ValueConverterEscapeTest {

    @Test
    void controlCharactersAreEscapedAsClickHouseQuotesThem() {
        assertThat(ValueConverter.escape("a\nb\tc\rd\0e")).isEqualTo("a\\nb\\tc\\rd\\0e");
        assertThat(ValueConverter.escape("it's a \\ path")).isEqualTo("it\\'s a \\\\ path");
        assertThat(ValueConverter.escape("\u0001\u001F\u007F\u0085\u009F"))
                .isEqualTo("\\x01\\x1F\\x7F\\x85\\x9F");
        assertThat(ValueConverter.escape("lost \uFFFD byte")).isEqualTo("lost \\uFFFD byte");
        // printable text, Unicode included, is kept as it is
        assertThat(ValueConverter.escape("Zoë 日本語 ε \u00A0")).isEqualTo("Zoë 日本語 ε \u00A0");
    }

    @Test
    void printableKeepsQuotesAndBackslashesOfAMessage() {
        assertThat(ValueConverter.printable("column 's': 'a\\b'\n\u0002"))
                .isEqualTo("column 's': 'a\\b'\\n\\x02");
    }

    @Test
    void bytesThatAreNotUtf8AreEscapedOneByOne() {
        byte[] b = {'P', 'A', (byte) 0xFF, 0x00, (byte) 0xC3, '\n', '\''};
        assertThat(ValueConverter.escapeBytes(b)).isEqualTo("PA\\xFF\\0\\xC3\\n\\'");
        // valid UTF-8 is shown as text
        assertThat(ValueConverter.escapeBytes("délta\u0001".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("délta\\x01");
        assertThat(ValueConverter.escapeBytes(new byte[0])).isEmpty();
    }

    @Test
    void randomInputsBecomePrintableAndDecodeBack() {
        Random random = new Random(16);
        int invalidUtf8 = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(24)];
            random.nextBytes(bytes);
            if (i % 2 == 0) {
                // mostly text with a few control characters
                for (int k = 0; k < bytes.length; k++) {
                    bytes[k] = (byte) (random.nextInt(10) == 0 ? random.nextInt(32) : 'a' + k % 26);
                }
            }
            String escaped = ValueConverter.escapeBytes(bytes);
            assertPrintable(escaped);
            String text = utf8(bytes);
            if (text == null) {
                // not UTF-8: escaped byte by byte
                invalidUtf8++;
                assertThat(unescape(escaped, true)).as("escaped: %s", escaped).isEqualTo(bytes);
            } else {
                assertThat(escaped).isEqualTo(ValueConverter.escape(text));
            }
            // any text (here with U+FFFD where the bytes were not UTF-8)
            String lossy = new String(bytes, StandardCharsets.UTF_8);
            String e = ValueConverter.escape(lossy);
            assertPrintable(e);
            assertThat(new String(unescape(e, false), StandardCharsets.UTF_8)).isEqualTo(lossy);
        }
        assertThat(invalidUtf8).isGreaterThan(5000);
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    private static void assertPrintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            assertThat(c < 0x20 || c >= 0x7F && c < 0xA0 || c == '\uFFFD')
                    .as("character 0x%x at %d of %s", (int) c, i, s)
                    .isFalse();
        }
    }

    /**
     * The inverse of the escapes, as UTF-8: {@code \xNN} is byte NN ({@code bytes}) or character
     * U+00NN (text), {@code \uFFFD} the replacement character.
     */
    private static byte[] unescape(String s, boolean bytes) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                int cp = s.codePointAt(i);
                out.writeBytes(utf8Of(cp));
                i += Character.charCount(cp) - 1;
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 'n' -> out.write('\n');
                case 't' -> out.write('\t');
                case 'r' -> out.write('\r');
                case '0' -> out.write(0);
                case '\\' -> out.write('\\');
                case '\'' -> out.write('\'');
                case 'x' -> {
                    int v = Integer.parseInt(s.substring(i + 1, i + 3), 16);
                    if (bytes) {
                        out.write(v);
                    } else {
                        out.writeBytes(utf8Of(v));
                    }
                    i += 2;
                }
                case 'u' -> {
                    assertThat(s.substring(i + 1, i + 5)).isEqualTo("FFFD");
                    out.writeBytes(utf8Of(0xFFFD));
                    i += 4;
                }
                default -> throw new IllegalArgumentException("escape \\" + n + " in " + s);
            }
        }
        return out.toByteArray();
    }

    private static byte[] utf8Of(int codePoint) {
        return new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
    }
}
