package io.github.s3mergetree.delivery.http;

import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's TabSeparated output: rows end with {@code \n}, fields are separated by {@code \t},
 * and {@code \\}, {@code \t}, {@code \n}, {@code \r}, {@code \0}, {@code \'}, {@code \b}, {@code
 * \f} are escaped with a backslash.
 */
public final class TabSeparated {
    private TabSeparated() {}

    /** The rows of {@code text}, each a list of unescaped fields. */
    public static List<List<String>> parse(String text) {
        List<List<String>> rows = new ArrayList<>();
        if (text.isEmpty()) {
            return rows;
        }
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                char n = text.charAt(++i);
                switch (n) {
                    case 't' -> field.append('\t');
                    case 'n' -> field.append('\n');
                    case 'r' -> field.append('\r');
                    case '0' -> field.append('\0');
                    case 'b' -> field.append('\b');
                    case 'f' -> field.append('\f');
                    default -> field.append(n);
                }
            } else if (c == '\t') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                field.append(c);
            }
        }
        if (field.length() > 0 || !row.isEmpty()) {
            row.add(field.toString());
            rows.add(row);
        }
        return rows;
    }
}
