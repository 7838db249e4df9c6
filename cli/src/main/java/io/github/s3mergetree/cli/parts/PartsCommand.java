package io.github.s3mergetree.cli.parts;

import io.github.s3mergetree.cli.args.Args;
import io.github.s3mergetree.cli.args.UsageException;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.engine.part.PartName;
import java.io.PrintStream;
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
        return "parts --table-path s3://BUCKET/PREFIX|DIR [--format table|json] [--s3-endpoint URL]"
                + " [--s3-region R] [--s3-access-key K --s3-secret-key S] [--s3-path-style]";
    }

    @Override
    public int run(List<String> argv, PrintStream out, PrintStream err) throws Exception {
        Set<String> options = new java.util.HashSet<>(TableParts.OPTIONS);
        options.add("--format");
        Set<String> flags = new java.util.HashSet<>(TableParts.FLAGS);
        flags.add("--verbose");
        Args a = Args.parse(argv, options, flags, Set.of());
        String format = a.get("--format").orElse("table");
        if (!format.equals("table") && !format.equals("json")) {
            throw new UsageException("--format must be table or json, not '" + format + "'");
        }
        List<TableParts.PartInfo> parts = new ArrayList<>();
        java.util.Optional<String> attach;
        try (TableParts table = TableParts.open(a)) {
            for (PartName p : table.active()) {
                parts.add(table.info(p));
            }
            attach = table.attachStatement();
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
        if (attach.isPresent()) {
            err.println("ClickHouse reads this table in place with:");
            err.println(attach.get() + ";");
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
