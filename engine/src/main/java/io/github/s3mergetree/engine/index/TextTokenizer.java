package io.github.s3mergetree.engine.index;

/**
 * Splits a string's bytes into the tokens the text bloom-filter indexes store (ClickHouse's {@code
 * ITokenizer} as {@code tokenbf_v1} and {@code ngrambf_v1} use it).
 *
 * <p>Why: ClickHouse hashes exactly these tokens into the filter, so the tokens must be the same
 * bytes for a part to be byte-identical and for ClickHouse's queries to find the rows.
 */
interface TextTokenizer {
    /** Receives one token: {@code length} bytes of {@code data} from {@code start}. */
    interface TokenSink {
        void accept(byte[] data, int start, int length);
    }

    /** Passes each token of {@code data[from, from + length)} to {@code sink}, in order. */
    void forEachToken(byte[] data, int from, int length, TokenSink sink);

    /**
     * {@code tokenbf_v1}'s {@code splitByNonAlpha}: the maximal runs of bytes that are ASCII
     * letters or digits or not ASCII at all (so a UTF-8 sequence never splits); every other ASCII
     * byte, zero bytes of a FixedString included, separates tokens. ClickHouse's SIMD and scalar
     * paths both give exactly these runs.
     */
    static TextTokenizer splitByNonAlpha() {
        return (data, from, length, sink) -> {
            int end = from + length;
            int start = -1;
            for (int i = from; i < end; i++) {
                int b = data[i];
                boolean inToken =
                        b < 0
                                || (b >= '0' && b <= '9')
                                || (b >= 'a' && b <= 'z')
                                || (b >= 'A' && b <= 'Z');
                if (inToken) {
                    if (start < 0) {
                        start = i;
                    }
                } else if (start >= 0) {
                    sink.accept(data, start, i - start);
                    start = -1;
                }
            }
            if (start >= 0) {
                sink.accept(data, start, end - start);
            }
        };
    }

    /**
     * {@code ngrambf_v1(n)}'s {@code ngrams}: every run of {@code n} UTF-8 code points, starting at
     * each code point in turn, until fewer than {@code n} are left; nothing for a value shorter
     * than {@code n} bytes. A code point's length is taken from its first byte as ClickHouse's
     * {@code UTF8::seqLength} does (a continuation byte or a byte from 0xF8 counts as one).
     */
    static TextTokenizer ngrams(int n) {
        return (data, from, length, sink) -> {
            if (length < n) {
                return;
            }
            int end = from + length;
            int pos = from;
            while (pos < end) {
                int tokenLength = 0;
                int codePoints = 0;
                while (codePoints < n && pos + tokenLength < end) {
                    tokenLength += seqLength(data[pos + tokenLength]);
                    codePoints++;
                }
                if (codePoints != n) {
                    return;
                }
                // a sequence cut short by the end of the value: only the value's own bytes
                sink.accept(data, pos, Math.min(tokenLength, end - pos));
                pos += seqLength(data[pos]);
            }
        };
    }

    /** ClickHouse's {@code UTF8::seqLength} of a sequence's first byte. */
    private static int seqLength(byte first) {
        int b = first & 0xFF;
        if (b < 0x80 || b >= 0xF8) {
            return 1;
        }
        // 7 - position of the highest zero bit
        return 7 - (31 - Integer.numberOfLeadingZeros(~b & 0xFF));
    }
}
