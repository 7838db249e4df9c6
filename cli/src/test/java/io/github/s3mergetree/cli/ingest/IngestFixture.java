package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.cli.testing.CommandRun;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.AttachStatements;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Test data and helpers for the ingest tests: posts Parquet files in a bucket directory served by a
 * {@link LocalS3Server}, the command run in-process or as a child JVM, and the judge (chDB's own
 * insert of the same files vs our parts attached).
 */
final class IngestFixture implements AutoCloseable {
    static final String BUCKET = "lake";
    static final String KEY = "test-access";
    static final String SECRET = "test-secret-do-not-log";

    final Path root;
    final Path store;
    final Path ddlFile;
    final LocalS3Server server;
    private final PostsGenerator gen = new PostsGenerator(7);
    private long nextId = 1;
    private final List<Path> files = new ArrayList<>();

    IngestFixture(Path root) throws Exception {
        this.root = root;
        this.store = root.resolve("s3");
        Files.createDirectories(store.resolve(BUCKET));
        this.ddlFile = root.resolve("posts.sql");
        Files.writeString(ddlFile, PostsGenerator.DDL);
        this.server = LocalS3Server.start(store, 0, KEY, SECRET);
    }

    /** Adds {@code n} Parquet files of {@code rows} posts under {@code posts/}. */
    void addFiles(int n, long rows) throws IOException {
        addFiles("posts", n, rows);
    }

    /** Adds {@code n} Parquet files of {@code rows} posts under {@code prefix/} of the bucket. */
    void addFiles(String prefix, int n, long rows) throws IOException {
        for (int i = 0; i < n; i++) {
            Path f =
                    store.resolve(BUCKET)
                            .resolve(prefix)
                            .resolve(String.format(Locale.ROOT, "part-%05d.parquet", files.size()));
            // written aside and renamed into the bucket: an S3 PUT is atomic, a growing file is not
            Path staging = root.resolve("staging").resolve(f.getFileName());
            gen.write(staging, nextId, rows);
            Files.createDirectories(f.getParent());
            Files.move(staging, f, StandardCopyOption.ATOMIC_MOVE);
            nextId += rows;
            files.add(f);
        }
    }

    /**
     * Adds a Parquet file of {@code rows} posts whose object holds only its first half (a truncated
     * upload); returns the whole file, kept aside, for {@link #replaceObject}. The judge counts its
     * rows: the test is expected to put the whole file in place before judging.
     */
    Path addTruncatedFile(long rows) throws IOException {
        Path f =
                store.resolve(BUCKET)
                        .resolve("posts")
                        .resolve(String.format(Locale.ROOT, "part-%05d.parquet", files.size()));
        Path whole = root.resolve("aside").resolve(f.getFileName());
        Files.createDirectories(whole.getParent());
        gen.write(whole, nextId, rows);
        byte[] b = Files.readAllBytes(whole);
        Path staging = root.resolve("staging").resolve(f.getFileName());
        Files.createDirectories(staging.getParent());
        Files.write(staging, java.util.Arrays.copyOf(b, b.length / 2));
        Files.createDirectories(f.getParent());
        Files.move(staging, f, StandardCopyOption.ATOMIC_MOVE);
        nextId += rows;
        files.add(f);
        return whole;
    }

    /** Replaces the object of bucket file {@code name} (under posts/) by {@code content}. */
    void replaceObject(String name, Path content) throws IOException {
        Path f = store.resolve(BUCKET).resolve("posts").resolve(name);
        Path staging = root.resolve("staging").resolve(name);
        Files.createDirectories(staging.getParent());
        Files.copy(content, staging, StandardCopyOption.REPLACE_EXISTING);
        Files.move(staging, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    long rowsWritten() {
        return nextId - 1;
    }

    List<String> ingestArgs(Path table, String... extra) {
        return ingestArgs(table.toString(), extra);
    }

    /** The ingest's arguments for table path {@code table} ({@code s3://…} or a directory). */
    List<String> ingestArgs(String table, String... extra) {
        List<String> a =
                new ArrayList<>(
                        List.of(
                                "ingest",
                                "--source",
                                "s3://" + BUCKET + "/posts/*.parquet",
                                "--format",
                                "Parquet",
                                "--table-ddl-file",
                                ddlFile.toString(),
                                "--table-path",
                                table,
                                "--s3-endpoint",
                                server.endpoint().toString(),
                                "--s3-access-key",
                                KEY,
                                "--s3-secret-key",
                                SECRET,
                                "--s3-path-style",
                                "--parallelism",
                                "2"));
        a.addAll(List.of(extra));
        return a;
    }

    /** The result of one in-process run. */
    record Result(int code, String out, String err) {
        String lastLine() {
            return CommandRun.lastLine(out);
        }

        long field(String name) {
            return Long.parseLong(value(name, "\\d+"));
        }

        /** A decimal field of the summary line. */
        double decimal(String name) {
            return Double.parseDouble(value(name, "[0-9.]+"));
        }

        /** The text of field {@code name} of the summary line, matching {@code valueRegex}. */
        private String value(String name, String valueRegex) {
            return CommandRun.field(lastLine(), name, valueRegex);
        }
    }

    static Result runInProcess(List<String> args) {
        CommandRun run = CommandRun.of(args);
        return new Result(run.code(), run.out(), run.err());
    }

    /** Starts the command in a child JVM (stdout and stderr to files under {@code root}). */
    Process startChild(List<String> args, String name) throws IOException {
        return startChild(
                args, name, List.of("-Ds3mergetree.log.file=" + root.resolve(name + ".log")));
    }

    /**
     * Starts the command in a child JVM with the given JVM options (no log file option: the
     * command's default).
     */
    Process startChild(List<String> args, String name, List<String> jvmOptions) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx768m");
        // the command's own log configuration, as a real run has: a test jar on the classpath
        // brings a log4j2-test.properties (console logging), which log4j would prefer
        cmd.add("-Dlog4j2.configurationFile=classpath:log4j2.properties");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(S3MergeTreeCommand.class.getName());
        cmd.addAll(args);
        return new ProcessBuilder(cmd)
                .redirectOutput(root.resolve(name + ".out").toFile())
                .redirectError(root.resolve(name + ".err").toFile())
                .start();
    }

    String childOut(String name) throws IOException {
        return Files.readString(root.resolve(name + ".out"));
    }

    String childErr(String name) throws IOException {
        return Files.readString(root.resolve(name + ".err"));
    }

    /** Rows in the table's active parts, read from the table directory. */
    static long tableRows(Path table) throws IOException {
        TableStore store = TableStore.local(table.toAbsolutePath().toString());
        String ddl = MergeTreeTable.storedDdl(store).orElseThrow();
        MergeTreeTable t = MergeTreeTable.open(store, TableLayouts.fromDdl(ddl), Clock.systemUTC());
        long rows = 0;
        for (ActivePart p : t.activeParts()) {
            rows += p.rows();
        }
        return rows;
    }

    /**
     * ClickHouse judges: our active parts attached into {@code posts} (CHECK TABLE passes) equal
     * chDB's own insert of the same Parquet files into {@code ref}: count, uniqExact(Id) and
     * RowsHash.
     */
    void assertEqualToClickHouse(Path table) throws Exception {
        MergeTreeTable t =
                MergeTreeTable.open(
                        TableStore.local(table.toAbsolutePath().toString()),
                        TableLayouts.fromDdl(PostsGenerator.DDL),
                        Clock.systemUTC());
        try (ChDb ch = ChDb.start(root.resolve("chdb-" + System.nanoTime()))) {
            ch.execute(PostsGenerator.DDL);
            for (ActivePart p : t.activeParts()) {
                ch.attachPart("posts", table.resolve(p.name().toString()));
            }
            assertEqualToClickHouse(ch);
        }
    }

    /**
     * The same for the S3 table under {@code prefix} of this fixture's bucket, read in place by
     * ClickHouse from the S3 server: {@code ATTACH TABLE … disk(type = s3_plain, …)}.
     */
    void assertS3TableEqualToClickHouse(String prefix) throws Exception {
        try (ChDb ch = ChDb.start(root.resolve("chdb-" + System.nanoTime()))) {
            ch.execute(
                    AttachStatements.s3Plain(
                            PostsGenerator.DDL,
                            server.endpoint() + "/" + BUCKET + "/" + prefix + "/",
                            KEY,
                            SECRET,
                            UUID.randomUUID()));
            assertEqualToClickHouse(ch);
        }
    }

    /** {@code posts} (our table in {@code ch}) equals chDB's own insert of the files. */
    private void assertEqualToClickHouse(ChDb ch) throws Exception {
        ch.execute(PostsGenerator.DDL.replace("CREATE TABLE posts", "CREATE TABLE ref"));
        ch.assertCheckTablePasses("posts");
        Path userFiles = ch.userFilesDir();
        Files.createDirectories(userFiles);
        for (Path f : files) {
            Files.copy(f, userFiles.resolve(f.getFileName()));
            ch.execute("INSERT INTO ref SELECT * FROM file('" + f.getFileName() + "', Parquet)");
        }
        assertThat(ch.queryLong("SELECT count() FROM posts"))
                .isEqualTo(rowsWritten())
                .isEqualTo(ch.queryLong("SELECT count() FROM ref"));
        assertThat(ch.queryLong("SELECT uniqExact(Id) FROM posts")).isEqualTo(rowsWritten());
        assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM posts"))
                .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM ref"));
    }

    /** The store of the {@code s3://} table {@code table} on this fixture's S3 server. */
    TableStore s3TableStore(String table) throws IOException {
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        return TableLocation.parse(
                        table,
                        new TableLocation.S3Settings(
                                server.endpoint(),
                                null,
                                true,
                                KEY,
                                SECRET,
                                d.connectTimeout(),
                                d.requestTimeout()))
                .openStore();
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
