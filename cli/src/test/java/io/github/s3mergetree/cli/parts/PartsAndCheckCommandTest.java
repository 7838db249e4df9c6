package io.github.s3mergetree.cli.parts;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code parts} and {@code check} on a table the engine wrote: {@code parts} shows exactly the
 * table's active parts, {@code check} passes, and after one flipped byte in a {@code .bin} file it
 * fails naming the part, the file and the offset.
 */
class PartsAndCheckCommandTest {
    static final String DDL =
            "CREATE TABLE events (day Date, id UInt64, name String) ENGINE = MergeTree"
                    + " PARTITION BY toYYYYMM(day) ORDER BY id";

    @TempDir Path tmp;
    Path tableDir;
    List<ActivePart> parts;

    /** Three inserts of 1,000 rows over two months: six parts, one merged away into a level 1. */
    @BeforeEach
    void writeTable() throws Exception {
        tableDir = tmp.resolve("events");
        TableLayout layout = TableLayouts.fromDdl(DDL);
        MergeTreeTable t =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(tableDir.toString()),
                        layout,
                        Clock.systemUTC());
        for (int i = 0; i < 3; i++) {
            RowBlockBuilder b =
                    new RowBlockBuilder(
                            "events", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
            for (long id = i * 1000L; id < (i + 1) * 1000L; id++) {
                b.addRow(LocalDate.of(2025, 1 + (int) (id % 2), 1 + (int) (id % 28)), id, "n" + id);
            }
            t.insert(b.build());
        }
        List<ActivePart> before = t.activeParts();
        assertThat(before).hasSize(6);
        // merge the January parts so the table has levels 0 and 1
        t.merge(
                before.stream()
                        .map(ActivePart::name)
                        .filter(n -> n.partitionId().equals("202501"))
                        .toList(),
                new io.github.s3mergetree.engine.merge.PartMerger.Progress());
        parts = t.activeParts();
        assertThat(parts).hasSize(4);
    }

    @Test
    void partsListsTheActivePartsWithTotals() throws Exception {
        Result r = run("parts", "--table-path", tableDir.toString());
        assertThat(r.code).as(r.err).isZero();
        List<String> lines = r.out.lines().toList();
        assertThat(lines).hasSize(1 + parts.size() + 1);
        assertThat(lines.get(0).split("\\s+"))
                .containsExactly(
                        "partition",
                        "part",
                        "rows",
                        "bytes_on_disk",
                        "uncompressed",
                        "level",
                        "marks");
        long rows = 0;
        long bytes = 0;
        long uncompressed = 0;
        for (int i = 0; i < parts.size(); i++) {
            ActivePart p = parts.get(i);
            String[] f = lines.get(1 + i).split("\\s+");
            assertThat(f[0]).isEqualTo(p.name().partitionId());
            assertThat(f[1]).isEqualTo(p.name().toString());
            assertThat(Long.parseLong(f[2])).isEqualTo(p.rows());
            assertThat(Long.parseLong(f[3])).isEqualTo(p.bytesOnDisk());
            assertThat(Long.parseLong(f[4])).isEqualTo(p.dataUncompressedBytes());
            assertThat(Integer.parseInt(f[5])).isEqualTo(p.name().level());
            // 8192-row granules: one data mark plus the final mark
            assertThat(Long.parseLong(f[6])).isEqualTo(2);
            rows += p.rows();
            bytes += p.bytesOnDisk();
            uncompressed += p.dataUncompressedBytes();
        }
        assertThat(rows).isEqualTo(3000);
        // columns line up: every row as wide as the header
        assertThat(lines.subList(0, lines.size() - 1))
                .allSatisfy(l -> assertThat(l).hasSameSizeAs(lines.get(0)));
        assertThat(lines.get(lines.size() - 1))
                .isEqualTo(
                        "total: 4 parts, 3000 rows, "
                                + bytes
                                + " bytes on disk, "
                                + uncompressed
                                + " bytes uncompressed");
        assertThat(parts.stream().map(p -> p.name().level()).distinct()).containsExactly(1, 0);

        Result json = run("parts", "--table-path", tableDir.toString(), "--format", "json");
        assertThat(json.code).isZero();
        List<String> jl = json.out.lines().toList();
        assertThat(jl).hasSize(parts.size());
        ActivePart first = parts.get(0);
        assertThat(jl.get(0))
                .isEqualTo(
                        "{\"partition_id\":\""
                                + first.name().partitionId()
                                + "\",\"name\":\""
                                + first.name()
                                + "\",\"rows\":"
                                + first.rows()
                                + ",\"bytes_on_disk\":"
                                + first.bytesOnDisk()
                                + ",\"data_uncompressed_bytes\":"
                                + first.dataUncompressedBytes()
                                + ",\"level\":1,\"marks\":2}");
    }

    @Test
    void checkPassesThenNamesTheCorruptPartFileAndOffset() throws Exception {
        Result ok = run("check", "--table-path", tableDir.toString());
        assertThat(ok.code).as(ok.err).isZero();
        List<String> lines = ok.out.lines().toList();
        assertThat(lines).hasSize(parts.size() + 1);
        for (int i = 0; i < parts.size(); i++) {
            assertThat(lines.get(i).split("\\s+"))
                    .containsExactly(parts.get(i).name().toString(), "OK");
        }
        assertThat(lines.get(parts.size())).isEqualTo("{\"parts\":4,\"ok\":4,\"failed\":0}");

        // flip one byte in the middle of the second part's name.bin (inside a compressed block)
        String victim = parts.get(1).name().toString();
        Path bin = tableDir.resolve(victim).resolve("name.bin");
        byte[] bytes = Files.readAllBytes(bin);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(bin, bytes);

        Result bad = run("check", "--table-path", tableDir.toString());
        assertThat(bad.code).isEqualTo(1);
        List<String> badLines = bad.out.lines().toList();
        assertThat(badLines.get(1))
                .startsWith(victim + "  CORRUPT  file name.bin at offset ")
                .contains("expected")
                .contains("actual");
        assertThat(badLines)
                .filteredOn(l -> l.endsWith("  OK"))
                .hasSize(3)
                .noneMatch(l -> l.startsWith(victim));
        assertThat(badLines.get(badLines.size() - 1))
                .isEqualTo("{\"parts\":4,\"ok\":3,\"failed\":1}");
        assertThat(bad.err).contains("1 failed the check");
        // nothing was moved: the damaged part is still there for the operator
        assertThat(tableDir.resolve(victim)).isDirectory();
        if (Files.exists(tableDir.resolve("detached"))) {
            try (Stream<Path> s = Files.list(tableDir.resolve("detached"))) {
                assertThat(s).isEmpty();
            }
        }

        // a missing file is named too
        Path third = tableDir.resolve(parts.get(2).name().toString());
        Files.delete(third.resolve("id.bin"));
        Result missing = run("check", "--table-path", tableDir.toString());
        assertThat(missing.code).isEqualTo(1);
        assertThat(missing.out)
                .contains(
                        parts.get(2).name()
                                + "  CORRUPT  file id.bin at offset 0: expected a file, actual missing");

        // parts detached as broken earlier are not checked, but mentioned
        Files.createDirectories(tableDir.resolve("detached/broken_202501_9_9_0"));
        assertThat(run("check", "--table-path", tableDir.toString()).err)
                .contains("note: detached/ holds 1 part(s) moved there as broken");
    }

    @Test
    void detachBrokenMovesWhatFailsTheCheckAndTheTableGoesOn() throws Exception {
        long rowsBefore = parts.stream().mapToLong(ActivePart::rows).sum();
        // a flipped byte inside a compressed block of the merged January part (its three sources
        // are still there, outdated), and a damaged primary.idx of a February part
        ActivePart binVictim = parts.get(0);
        assertThat(binVictim.name().level()).isEqualTo(1);
        ActivePart idxVictim = parts.get(3);
        Path bin = tableDir.resolve(binVictim.name().toString()).resolve("name.bin");
        byte[] b = Files.readAllBytes(bin);
        b[b.length / 2] ^= 0x01;
        Files.write(bin, b);
        Path idx = tableDir.resolve(idxVictim.name().toString()).resolve("primary.idx");
        byte[] i = Files.readAllBytes(idx);
        i[0] ^= 0x01;
        Files.write(idx, i);

        Result r = run("check", "--table-path", tableDir.toString(), "--detach-broken");
        assertThat(r.code).as(r.err).isEqualTo(1);
        assertThat(r.out.lines().toList())
                .last()
                .asString()
                .isEqualTo("{\"parts\":4,\"ok\":2,\"failed\":2,\"detached\":2}");
        for (ActivePart victim : List.of(binVictim, idxVictim)) {
            String name = victim.name().toString();
            assertThat(r.err).contains(name + ": moved to detached/broken_" + name);
            assertThat(tableDir.resolve(name)).doesNotExist();
            assertThat(tableDir.resolve("detached/broken_" + name).resolve("checksums.txt"))
                    .isRegularFile();
        }
        // the part log says where each part went and why
        List<String> removed =
                io.github.s3mergetree.engine.table.PartLog.of(
                                io.github.s3mergetree.engine.store.TableStore.local(
                                        tableDir.toString()))
                        .lines()
                        .stream()
                        .filter(l -> l.contains("\"event_type\":\"RemovePart\""))
                        .filter(l -> l.contains("CHECK TABLE"))
                        .toList();
        assertThat(removed).hasSize(2);
        assertThat(removed)
                .anySatisfy(
                        l ->
                                assertThat(l)
                                        .contains(binVictim.name().toString())
                                        .contains("\"rows\":" + binVictim.rows()));

        // the table goes on without them: the merged part's sources are active again (as
        // ClickHouse reactivates covered parts), so only the February part's rows are gone; the
        // check passes, an insert and merges work
        Result again = run("check", "--table-path", tableDir.toString(), "--detach-broken");
        assertThat(again.code).as(again.err).isZero();
        assertThat(again.out.lines().toList())
                .last()
                .asString()
                .isEqualTo("{\"parts\":5,\"ok\":5,\"failed\":0,\"detached\":0}");
        TableLayout layout = TableLayouts.fromDdl(DDL);
        MergeTreeTable t =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(tableDir.toString()),
                        layout,
                        Clock.systemUTC());
        assertThat(t.activeParts().stream().mapToLong(ActivePart::rows).sum())
                .isEqualTo(rowsBefore - idxVictim.rows());
        RowBlockBuilder more =
                new RowBlockBuilder(
                        "events", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
        for (long id = 5000; id < 5100; id++) {
            more.addRow(LocalDate.of(2025, 1 + (int) (id % 2), 1), id, "m" + id);
        }
        t.insert(more.build());
        for (String partition : List.of("202501", "202502")) {
            List<io.github.s3mergetree.engine.part.PartName> inPartition =
                    t.activeParts().stream()
                            .map(ActivePart::name)
                            .filter(n -> n.partitionId().equals(partition))
                            .toList();
            if (inPartition.size() > 1) {
                t.merge(inPartition, new io.github.s3mergetree.engine.merge.PartMerger.Progress());
            }
        }
        assertThat(t.activeParts().stream().mapToLong(ActivePart::rows).sum())
                .isEqualTo(rowsBefore - idxVictim.rows() + 100);
        assertThat(run("check", "--table-path", tableDir.toString()).code).isZero();
    }

    @Test
    void notATableDirectoryIsOneLine() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        for (String cmd : List.of("parts", "check")) {
            Result r = run(cmd, "--table-path", empty.toString());
            assertThat(r.code).isEqualTo(1);
            assertThat(r.err.lines().toList())
                    .first()
                    .asString()
                    .isEqualTo(
                            "s3-mergetree "
                                    + cmd
                                    + ": error: "
                                    + empty
                                    + " is not a table directory (it has no"
                                    + " s3mergetree_metadata/table.sql; give the directory a"
                                    + " MergeTree sink or the demo wrote)");
            Result none = run(cmd, "--table-path", tmp.resolve("nope").toString());
            assertThat(none.err).startsWith("s3-mergetree " + cmd + ": error: no such directory: ");
            assertThat(tmp.resolve("nope")).doesNotExist();
        }
        Result usage = run("parts", "--table-path", tableDir.toString(), "--format", "xml");
        assertThat(usage.code).isEqualTo(2);
        assertThat(usage.err).contains("--format must be table or json, not 'xml'");
    }

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                                new PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8))
                        .run(args);
        return new Result(
                code,
                out.toString(java.nio.charset.StandardCharsets.UTF_8),
                err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
