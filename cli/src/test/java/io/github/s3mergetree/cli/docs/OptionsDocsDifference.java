package io.github.s3mergetree.cli.docs;

/**
 * Where a checked-in generated document first differs from what its generator renders, as one line
 * for a test's failure message ({@code line N: the file has "...", the code renders "..."}), or the
 * empty string when they are equal.
 */
final class OptionsDocsDifference {
    private OptionsDocsDifference() {}

    static String of(String checkedIn, String rendered) {
        if (checkedIn.equals(rendered)) {
            return "";
        }
        String[] have = checkedIn.split("\n", -1);
        String[] want = rendered.split("\n", -1);
        int n = Math.max(have.length, want.length);
        for (int i = 0; i < n; i++) {
            String h = i < have.length ? have[i] : null;
            String w = i < want.length ? want[i] : null;
            if (h == null || w == null || !h.equals(w)) {
                return "line "
                        + (i + 1)
                        + ": the file has "
                        + quoted(h)
                        + ", the code renders "
                        + quoted(w);
            }
        }
        return "the files differ in line endings";
    }

    private static String quoted(String line) {
        return line == null ? "(end of file)" : "\"" + line + "\"";
    }
}
