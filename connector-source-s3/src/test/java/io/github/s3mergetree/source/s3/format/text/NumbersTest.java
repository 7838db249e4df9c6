package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast float parsing paths agree bit for bit with the JDK's correctly rounded parser. */
class NumbersTest {
    static double parse(String s, boolean f32) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return Numbers.readDouble(TextCursor.over(b, 0, b.length), new ByteBuf(), f32);
    }

    @Test
    void doublesAndFloatsAreCorrectlyRounded() {
        Random r = new Random(42);
        for (int i = 0; i < 300_000; i++) {
            String s =
                    switch (i % 6) {
                        case 0 ->
                                Double.toString(
                                        Double.longBitsToDouble(
                                                r.nextLong() & 0x7FEFFFFFFFFFFFFFL));
                        case 1 ->
                                Double.toString(
                                        r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20));
                        case 2 -> (r.nextLong() >>> r.nextInt(64)) + "e" + (r.nextInt(700) - 350);
                        case 3 ->
                                "0."
                                        + Long.toUnsignedString(r.nextLong())
                                        + "e"
                                        + (r.nextInt(40) - 20);
                        case 4 -> Long.toUnsignedString(r.nextLong()) + "." + r.nextInt(1000);
                        default -> String.valueOf(Float.intBitsToFloat(r.nextInt() & 0x7F7FFFFF));
                    };
            if (s.contains("Infinity") || s.contains("NaN")) {
                continue;
            }
            String plain = s.startsWith("-") ? s.substring(1) : s;
            assertThat(Double.doubleToRawLongBits(Math.abs(parse(plain, false))))
                    .as(plain)
                    .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(plain)));
            assertThat(Float.floatToRawIntBits((float) Math.abs(parse(plain, true))))
                    .as("Float32 " + plain)
                    .isEqualTo(Float.floatToRawIntBits(Float.parseFloat(plain)));
        }
        // halfway cases and the ends of the range
        for (String s :
                new String[] {
                    "9007199254740993",
                    "9007199254740995",
                    "2.2250738585072011e-308",
                    "4.9e-324",
                    "2.4703282292062327e-324",
                    "1.7976931348623157e308",
                    "1e309",
                    "1e-400",
                    "0.1",
                    "123456789012345678e-10",
                    "9999999999999999999"
                }) {
            assertThat(Double.doubleToRawLongBits(parse(s, false)))
                    .as(s)
                    .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(s)));
        }
    }
}
