package io.github.s3mergetree.examples.cli;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.table.TableDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code s3-mergetree parts --table-path DIR [--format table|json]}: the table's active parts, as
 * ClickHouse's {@code system.parts} shows them.
 *
 * <p>For each active part (ordered by partition and block number): partition id, part name, rows,
 * bytes on disk, uncompressed bytes of its columns, merge level and marks (including the final
 * mark; {@code -} when the part has no mark file). {@code table} (the default) prints an aligned
 * table with a header and, as the last line, the totals; {@code json} prints one JSON object per
 * part ({@code partition_id}, {@code name}, {@code rows}, {@code bytes_on_disk}, {@code
 * data_uncompressed_bytes}, {@code level}, {@code marks}; -1 for no marks) and nothing else. The
 * table directory is only read (see {@link TableParts}).
 */
public final class PartsCommand implements Subcommand {
    @Override
    public String name() {
        return "parts";
    }

    @Override
    public String usage() {
        return "parts --table-path DIR [--format table|json]";
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws Exception {
        Args a =
                Args.parse(argv, Set.of("--table-path", "--format"), Set.of("--verbose"), Set.of());
        Path dir = Paths.get(a.required("--table-path")).toAbsolutePath();
        String format = a.get("--format").orElse("table");
        if (!format.equals("table") && !format.equals("json")) {
            throw new UsageException("--format must be table or json, not '" + format + "'");
        }
        TableDirectory table = TableParts.open(dir);
        List<TableParts.PartInfo> parts = new ArrayList<>();
        for (PartName p : TableParts.active(table)) {
            parts.add(TableParts.info(table, p));
        }
        if (format.equals("json")) {
            for (TableParts.PartInfo p : parts) {
                out.printf(
                        Locale.ROOT,
                        "{\"partition_id\":\"%s\",\"name\":\"%s\",\"rows\":%d,\"bytes_on_disk\":%d,"
                                + "\"data_uncompressed_bytes\":%d,\"level\":%d,\"marks\":%d}%n",
                        p.name().partitionId(),
                        p.name(),
                        p.rows(),
                        p.bytesOnDisk(),
                        p.dataUncompressedBytes(),
                        p.name().level(),
                        p.marks());
            }
        } else {
            printTable(parts, out);
        }
        out.flush();
        return 0;
    }

    private static void printTable(List<TableParts.PartInfo> parts, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(
                new String[] {
                    "partition", "part", "rows", "bytes_on_disk", "uncompressed", "level", "marks"
                });
        long totalRows = 0;
        long totalBytes = 0;
        long totalUncompressed = 0;
        for (TableParts.PartInfo p : parts) {
            rows.add(
                    new String[] {
                        p.name().partitionId(),
                        p.name().toString(),
                        Long.toString(p.rows()),
                        Long.toString(p.bytesOnDisk()),
                        Long.toString(p.dataUncompressedBytes()),
                        Integer.toString(p.name().level()),
                        p.marks() < 0 ? "-" : Long.toString(p.marks())
                    });
            totalRows += p.rows();
            totalBytes += p.bytesOnDisk();
            totalUncompressed += p.dataUncompressedBytes();
        }
        int[] width = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) {
                    line.append("  ");
                }
                // text columns left-aligned, numbers right-aligned
                String pad = " ".repeat(width[i] - r[i].length());
                line.append(i < 2 ? r[i] + pad : pad + r[i]);
            }
            out.println(line.toString().stripTrailing());
        }
        out.printf(
                Locale.ROOT,
                "total: %d parts, %d rows, %d bytes on disk, %d bytes uncompressed%n",
                parts.size(),
                totalRows,
                totalBytes,
                totalUncompressed);
    }
}
