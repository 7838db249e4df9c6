package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.store.PartFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A part's {@code ttl.txt}: for the table's row TTL ({@code table}), each TTL with {@code WHERE}
 * ({@code rows_where}, by its printed expression) and each column TTL ({@code columns}, by column
 * name), the smallest non-zero and the largest TTL time (epoch seconds) of the part's rows, and
 * whether the TTL has finished (every row past it when the part was written), exactly as ClickHouse
 * 26.7's {@code MergeTreeDataPartTTLInfos} writes and reads them.
 *
 * <p>Why: ClickHouse decides from these values, without reading data, whether a merge must apply
 * TTL to a part ({@link #partMinTtl()} at or before now) and whether all its rows have expired
 * ({@link #partMaxTtl()}); a part without them is recalculated by force on its next merge. A time
 * of 0 (the epoch) never expires and never becomes the minimum.
 */
public final class TtlInfos {
    /** The file name in a part directory. */
    public static final String FILE_NAME = PartFiles.TTL;

    /** The smallest non-zero and the largest TTL time of one TTL over a part's rows. */
    public static final class Info {
        private long min;
        private long max;
        private Boolean finished;

        /** A time of one row ({@code MergeTreeDataPartTTLInfo::update(time_t)}). */
        public void update(long time) {
            if (time != 0 && (min == 0 || time < min)) {
                min = time;
            }
            max = Math.max(time, max);
        }

        /** The union with another part's ({@code update(const MergeTreeDataPartTTLInfo &)}). */
        public void update(Info other) {
            if (other.min != 0 && (min == 0 || other.min < min)) {
                min = other.min;
            }
            max = Math.max(other.max, max);
            finished = finished == null ? other.finished() : finished && other.finished();
        }

        public long min() {
            return min;
        }

        public long max() {
            return max;
        }

        /** Whether every row was past this TTL when the part was written by a TTL merge. */
        public boolean finished() {
            return finished != null && finished;
        }

        /** Marks the TTL finished (all rows of the sources had expired). */
        public void setFinished(boolean value) {
            finished = value;
        }

        /** An independent copy. */
        public Info copy() {
            Info i = new Info();
            i.min = min;
            i.max = max;
            i.finished = finished;
            return i;
        }

        @Override
        public String toString() {
            return "[" + min + ", " + max + (finished() ? ", finished]" : "]");
        }
    }

    private final Map<String, Info> columns = new TreeMap<>();
    private Info table = new Info();
    private final Map<String, Info> rowsWhere = new TreeMap<>();
    private long partMinTtl;
    private long partMaxTtl;

    /** The row TTL ({@code table}). */
    public Info table() {
        return table;
    }

    /** Replaces the row TTL (after a merge applied it). */
    public void setTable(Info info) {
        table = info;
        updatePartMinMax(info);
    }

    /** The column TTL of {@code column}, created empty if absent. */
    public Info column(String column) {
        return columns.computeIfAbsent(column, k -> new Info());
    }

    /** Sets the column TTL of {@code column} (after a merge applied it). */
    public void setColumn(String column, Info info) {
        columns.put(column, info);
        updatePartMinMax(info);
    }

    /** The TTL with {@code WHERE} printed as {@code expression}, created empty if absent. */
    public Info rowsWhere(String expression) {
        return rowsWhere.computeIfAbsent(expression, k -> new Info());
    }

    /** Sets a TTL with {@code WHERE} (after a merge applied it). */
    public void setRowsWhere(String expression, Info info) {
        rowsWhere.put(expression, info);
        updatePartMinMax(info);
    }

    /** Column name → column TTL, by name. */
    public Map<String, Info> columns() {
        return java.util.Collections.unmodifiableMap(columns);
    }

    /** Printed expression → TTL with {@code WHERE}. */
    public Map<String, Info> rowsWhere() {
        return java.util.Collections.unmodifiableMap(rowsWhere);
    }

    /** Folds {@code info} into the part's minimum and maximum ({@code updatePartMinMaxTTL}). */
    public void updatePartMinMax(Info info) {
        if (info.min != 0 && (partMinTtl == 0 || info.min < partMinTtl)) {
            partMinTtl = info.min;
        }
        partMaxTtl = Math.max(partMaxTtl, info.max);
    }

    /** The smallest non-zero TTL time of any TTL of the part, 0 if none. */
    public long partMinTtl() {
        return partMinTtl;
    }

    /** The largest TTL time of any TTL of the part. */
    public long partMaxTtl() {
        return partMaxTtl;
    }

    /** The union with a source part's infos, as a merge that does not apply TTL keeps them. */
    public void update(TtlInfos other) {
        for (Map.Entry<String, Info> e : other.columns.entrySet()) {
            column(e.getKey()).update(e.getValue());
            updatePartMinMax(e.getValue());
        }
        for (Map.Entry<String, Info> e : other.rowsWhere.entrySet()) {
            rowsWhere(e.getKey()).update(e.getValue());
            updatePartMinMax(e.getValue());
        }
        table.update(other.table);
        updatePartMinMax(table);
    }

    /** Whether ClickHouse writes no {@code ttl.txt} for these infos. */
    public boolean isEmpty() {
        return table.min == 0 && columns.isEmpty() && rowsWhere.isEmpty();
    }

    /** The bytes of {@code ttl.txt}, as {@code MergeTreeDataPartTTLInfos::write} writes them. */
    public byte[] serialize() {
        StringBuilder b = new StringBuilder("ttl format version: 1\n{");
        if (!columns.isEmpty()) {
            b.append("\"columns\":[");
            boolean first = true;
            for (Map.Entry<String, Info> e : columns.entrySet()) {
                b.append(first ? "" : ",").append("{\"name\":");
                quote(b, e.getKey());
                appendTimes(b, e.getValue());
                b.append('}');
                first = false;
            }
            b.append(']');
        }
        if (table.min != 0) {
            if (!columns.isEmpty()) {
                b.append(',');
            }
            b.append("\"table\":{\"min\":").append(table.min);
            b.append(",\"max\":").append(table.max);
            b.append(",\"finished\":").append(table.finished() ? 1 : 0).append('}');
        }
        if (!rowsWhere.isEmpty()) {
            if (!columns.isEmpty() || table.min != 0) {
                b.append(',');
            }
            b.append("\"rows_where\":[");
            boolean first = true;
            for (Map.Entry<String, Info> e : rowsWhere.entrySet()) {
                b.append(first ? "" : ",").append("{\"expression\":");
                quote(b, e.getKey());
                appendTimes(b, e.getValue());
                b.append('}');
                first = false;
            }
            b.append(']');
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void appendTimes(StringBuilder b, Info i) {
        b.append(",\"min\":").append(i.min).append(",\"max\":").append(i.max);
        b.append(",\"finished\":").append(i.finished() ? 1 : 0);
    }

    /** ClickHouse's {@code doubleQuoteString}: backslash escapes, as in its text formats. */
    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '\0' -> b.append("\\0");
                default -> b.append(c);
            }
        }
        b.append('"');
    }

    /**
     * Reads a {@code ttl.txt} ({@code MergeTreeDataPartTTLInfos::read}); the sections this engine
     * does not write ({@code moves}, {@code recompression}, {@code group_by}) are read and dropped,
     * except that {@code group_by} times count towards the part's minimum and maximum.
     *
     * @param where the file, for messages
     * @throws CorruptPartException if the content is not a ttl.txt
     */
    public static TtlInfos parse(byte[] content, String where) {
        String text = new String(content, StandardCharsets.UTF_8);
        String header = "ttl format version: 1\n";
        if (!text.startsWith(header)) {
            throw new CorruptPartException(where, 0, "'" + header.trim() + "'", "another header");
        }
        Object json;
        try {
            MiniJson p = new MiniJson(text, header.length());
            json = p.value();
        } catch (IllegalArgumentException e) {
            throw new CorruptPartException(where, 0, "a JSON object", e.getMessage());
        }
        if (!(json instanceof Map<?, ?> root)) {
            throw new CorruptPartException(where, 0, "a JSON object", "another value");
        }
        TtlInfos infos = new TtlInfos();
        if (root.get("columns") instanceof List<?> cols) {
            for (Object o : cols) {
                Map<?, ?> m = (Map<?, ?>) o;
                Info i = info(m);
                infos.columns.put((String) m.get("name"), i);
                infos.updatePartMinMax(i);
            }
        }
        if (root.get("table") instanceof Map<?, ?> t) {
            infos.table = info(t);
            infos.updatePartMinMax(infos.table);
        }
        if (root.get("group_by") instanceof List<?> groups) {
            for (Object o : groups) {
                infos.updatePartMinMax(info((Map<?, ?>) o));
            }
        }
        if (root.get("rows_where") instanceof List<?> rows) {
            for (Object o : rows) {
                Map<?, ?> m = (Map<?, ?>) o;
                Info i = info(m);
                infos.rowsWhere.put((String) m.get("expression"), i);
                infos.updatePartMinMax(i);
            }
        }
        return infos;
    }

    private static Info info(Map<?, ?> m) {
        Info i = new Info();
        i.min = ((Number) m.get("min")).longValue();
        i.max = ((Number) m.get("max")).longValue();
        if (m.get("finished") instanceof Number f) {
            i.finished = f.longValue() != 0;
        }
        return i;
    }

    /** A deep copy. */
    public TtlInfos copy() {
        TtlInfos c = new TtlInfos();
        columns.forEach((k, v) -> c.columns.put(k, v.copy()));
        rowsWhere.forEach((k, v) -> c.rowsWhere.put(k, v.copy()));
        c.table = table.copy();
        c.partMinTtl = partMinTtl;
        c.partMaxTtl = partMaxTtl;
        return c;
    }

    @Override
    public String toString() {
        return new String(serialize(), StandardCharsets.UTF_8);
    }

    /** The JSON subset of {@code ttl.txt}: objects, arrays, strings, integers, booleans. */
    private static final class MiniJson {
        private final String s;
        private int i;

        MiniJson(String s, int start) {
            this.s = s;
            this.i = start;
        }

        Object value() {
            skip();
            if (i >= s.length()) {
                throw new IllegalArgumentException("the end of the file");
            }
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                skip();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    skip();
                    String k = string();
                    skip();
                    expect(':');
                    m.put(k, value());
                    skip();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                skip();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    skip();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return 1L;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return 0L;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (start == i || (c == '-' && start + 1 == i)) {
                throw new IllegalArgumentException("'" + c + "' at offset " + start);
            }
            return Long.parseLong(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (i < s.length() && s.charAt(i) != '"') {
                char c = s.charAt(i++);
                if (c == '\\' && i < s.length()) {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case '0' -> b.append('\0');
                        default -> b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
            expect('"');
            return b.toString();
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw new IllegalArgumentException(
                        "'" + c + "' expected at offset " + i + " of the JSON");
            }
            i++;
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
