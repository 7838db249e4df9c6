package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.KeyOrder;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.S3Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Can listing, split assignment or commit ever count an object twice (or drop one)? One report:
 * {@code s3://keys/*.parquet} listed 4 objects, the table held the rows of 6. This test lists and
 * ingests a prefix of objects with odd keys 50 times and counts every row of every object.
 *
 * <p>The keys are those a URL or form decoder confuses with each other — {@code a b}, {@code a+b},
 * {@code a%20b}, {@code a%2Bb}, {@code a%2520b} side by side — plus {@code %}, {@code =}, {@code
 * &}, {@code ?}, {@code #}, {@code ;}, brackets, NFC and NFD forms of the same letter, CJK, an
 * emoji (a supplementary character: UTF-16 and UTF-8 order disagree) and a fullwidth letter. Decoys
 * the glob must not match sit beside them (a subdirectory, a {@code .tmp} suffix, the other
 * format's objects). Every row carries its object's key, so a miscount names the object.
 *
 * <p>The iterations vary what could matter: Parquet and TabSeparated (the text format read in byte
 * ranges; CSV is read whole), parallelism 1 to 3, objects whole or cut into byte ranges ({@code
 * s3.split.size}, several row groups / lines per range), checkpoints (commits) during the read;
 * every tenth iteration runs the real {@code ingest} command. Each iteration checks that the
 * listing holds every object once and that the table holds exactly each object's rows; ClickHouse
 * (chDB) judges the last table. One MiniCluster serves every iteration but the command's own.
 */
class OddKeysStressITCase {
    private static final int ITERATIONS = 50;
    private static final String BUCKET = "keys";
    private static final String KEY = "stress-access";
    private static final String SECRET = "stress-secret";
    private static final String DDL =
            "CREATE TABLE k (key String, id UInt64) ENGINE = MergeTree ORDER BY (key, id)";

    /** Object names (without extension) a decoder could confuse with one another. */
    static final List<String> NAMES =
            List.of(
                    "plain",
                    "a b",
                    "a+b",
                    "a%20b",
                    "a%2Bb",
                    "a%2520b",
                    "a  b",
                    " leading",
                    "100%",
                    "%",
                    "%zz",
                    "k=v",
                    "x=1&y=2",
                    "q?x",
                    "hash#1",
                    "semi;colon",
                    "comma,x",
                    "brackets[1]",
                    "braces{1}",
                    "paren(1)",
                    "tilde~x",
                    "at@x$y",
                    "\u00e9t\u00e9", // NFC
                    "e\u0301te\u0301", // the same word NFD
                    "\u65e5\u672c\u8a9e",
                    "emoji-\ud83d\ude00",
                    // these two differ in their first character: S3 lists the fullwidth one
                    // first, Java's compareTo the emoji
                    "\ud83d\ude00",
                    "\uff21-fullwidth");

    /**
     * One MiniCluster for the iterations (the ingest command's iterations start their own, as the
     * command does: it must not run in a test environment context).
     */
    private static MiniCluster cluster;

    @TempDir Path tmp;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(3)
                                .build());
        cluster.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** How an iteration runs the ingest. */
    enum Runner {
        /** source → sink on the shared MiniCluster, bounded. */
        SHARED_CLUSTER,
        /** the real {@code ingest} command in-process (its own MiniCluster). */
        COMMAND,
        /** continuous discovery on the shared MiniCluster, half the objects arriving mid-run. */
        CONTINUOUS
    }

    /** What one iteration varies. */
    record Iteration(int n, boolean parquet, int parallelism, boolean ranges, Runner runner) {
        static Iteration of(int n) {
            Runner runner =
                    n % 10 == 9
                            ? Runner.COMMAND
                            : n % 10 == 4 ? Runner.CONTINUOUS : Runner.SHARED_CLUSTER;
            // the command's and the continuous iterations alternate formats too (the continuous
            // ones cross format and discovery mode: Parquet/TSV x UNORDERED/ORDERED)
            boolean parquet =
                    switch (runner) {
                        case COMMAND -> n % 20 == 9;
                        case CONTINUOUS -> (n / 10) % 4 == 0 || (n / 10) % 4 == 3;
                        case SHARED_CLUSTER -> n % 2 == 0;
                    };
            return new Iteration(n, parquet, 1 + n % 3, n % 4 >= 2, runner);
        }

        String extension() {
            return parquet ? "parquet" : "tsv";
        }

        /** UNORDERED (the default) and ORDERED discovery in turn. */
        String discoveryMode() {
            return (n / 10) % 2 == 0 ? "unordered" : "ordered";
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "iteration %d (%s, p=%d, %s, %s)",
                    n,
                    parquet ? "Parquet" : "TSV",
                    parallelism,
                    ranges ? "byte ranges" : "whole objects",
                    switch (runner) {
                        case SHARED_CLUSTER -> "shared MiniCluster";
                        case COMMAND -> "the ingest command";
                        case CONTINUOUS -> "continuous, " + discoveryMode() + " discovery";
                    });
        }
    }

    private Path dir;
    private LocalS3Server server;
    private Path ddlFile;
    private final Map<String, Long> parquetRows = new TreeMap<>();
    private final Map<String, Long> tsvRows = new TreeMap<>();

    @Test
    void everyObjectIsListedAndCountedOnceInFiftyIterations() throws Exception {
        Path store = tmp.resolve("s3");
        dir = Files.createDirectories(store.resolve(BUCKET));
        // ids unique over every object; rows per object differ, so a doubled object shows
        long nextId = 1;
        for (int i = 0; i < NAMES.size(); i++) {
            String name = NAMES.get(i);
            int rows = 150 + 37 * i;
            writeParquet(dir.resolve(name + ".parquet"), name + ".parquet", nextId, rows);
            parquetRows.put(name + ".parquet", (long) rows);
            nextId += rows;
            writeTsv(dir.resolve(name + ".tsv"), name + ".tsv", nextId, rows);
            tsvRows.put(name + ".tsv", (long) rows);
            nextId += rows;
        }
        // decoys: not matched by *.parquet / *.tsv
        writeParquet(Files.createDirectories(dir.resolve("sub")).resolve("a b.parquet"), "x", 0, 9);
        writeParquet(dir.resolve("a b.parquet.tmp"), "x", 0, 9);
        writeTsv(dir.resolve("sub").resolve("a+b.tsv"), "x", 0, 9);
        ddlFile = tmp.resolve("k.sql");
        Files.writeString(ddlFile, DDL);

        List<String> outcomes = new ArrayList<>();
        try (LocalS3Server started = LocalS3Server.start(store, 0, KEY, SECRET)) {
            server = started;
            Path last = null;
            Iteration lastIteration = null;
            for (int n = 0; n < ITERATIONS; n++) {
                Iteration it = Iteration.of(n);
                Map<String, Long> expected = it.parquet() ? parquetRows : tsvRows;
                Path table = tmp.resolve("table-" + n);
                String prefix = it.runner() == Runner.CONTINUOUS ? "cont-" + n + "/" : "";
                List<String> args = args(it, prefix, table);
                IngestOptions o = IngestOptions.parse(args.subList(1, args.size()));
                IngestSettings settings = IngestSettings.parse(o.settings());

                int splits =
                        switch (it.runner()) {
                            case SHARED_CLUSTER -> runBounded(it, o, settings, expected);
                            case COMMAND -> runCommand(it, args, o, settings, expected);
                            case CONTINUOUS -> runContinuous(it, prefix, o, settings, expected);
                        };
                Map<String, Long> counted = rowsByKey(table);
                assertThat(counted).as("%s", it).isEqualTo(expected);
                outcomes.add(
                        it
                                + ": "
                                + expected.size()
                                + " objects, "
                                + splits
                                + " splits, "
                                + sum(counted)
                                + " rows");
                if (last != null) {
                    deleteTree(last);
                }
                last = table;
                lastIteration = it;
            }
            System.out.println("OddKeysStressITCase:\n  " + String.join("\n  ", outcomes));

            // ClickHouse judges the last table: our parts attached, CHECK TABLE passes and each
            // object's rows are there once
            Map<String, Long> expected = lastIteration.parquet() ? parquetRows : tsvRows;
            try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
                ch.execute(DDL);
                MergeTreeTable t =
                        MergeTreeTable.open(
                                TableStore.local(last.toString()),
                                TableLayouts.fromDdl(DDL),
                                Clock.systemUTC());
                for (ActivePart p : t.activeParts()) {
                    ch.attachPart("k", last.resolve(p.name().toString()));
                }
                ch.assertCheckTablePasses("k");
                assertThat(ch.queryLong("SELECT count() FROM k")).isEqualTo(sum(expected));
                assertThat(ch.queryLong("SELECT uniqExact(id) FROM k")).isEqualTo(sum(expected));
                assertThat(ch.queryLong("SELECT uniqExact(key) FROM k")).isEqualTo(expected.size());
                for (Map.Entry<String, Long> e : expected.entrySet()) {
                    assertThat(
                                    ch.queryLong(
                                            "SELECT count() FROM k WHERE key = '"
                                                    + e.getKey().replace("'", "\\'")
                                                    + "'"))
                            .as(e.getKey())
                            .isEqualTo(e.getValue());
                }
            }
        }
    }

    private List<String> args(Iteration it, String prefix, Path table) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "ingest",
                                "--source",
                                "s3://" + BUCKET + "/" + prefix + "*." + it.extension(),
                                "--format",
                                it.parquet() ? "Parquet" : "TabSeparated",
                                "--table-ddl-file",
                                ddlFile.toString(),
                                "--table-path",
                                table.toString(),
                                "--s3-endpoint",
                                server.endpoint().toString(),
                                "--s3-access-key",
                                KEY,
                                "--s3-secret-key",
                                SECRET,
                                "--s3-path-style",
                                "--parallelism",
                                Integer.toString(it.parallelism()),
                                "--checkpoint-interval",
                                "300ms",
                                "--setting",
                                "max_block_size=64"));
        if (it.ranges()) {
            // several ranges per object: row groups / lines cut at range boundaries
            args.addAll(List.of("--setting", "s3.split.size=2048"));
        }
        if (it.runner() == Runner.CONTINUOUS) {
            args.addAll(
                    List.of(
                            "--continuous",
                            "--discovery-interval",
                            "200ms",
                            "--setting",
                            "s3queue_mode=" + it.discoveryMode()));
        }
        return args;
    }

    /**
     * Lists the source's objects as the command does before a job: each expected object exactly
     * once, nothing else. Returns the number of splits the source's planner makes of them.
     */
    private static int checkListing(
            Iteration it, S3Source<Block> source, String prefix, Map<String, Long> expected)
            throws IOException {
        List<ObjectSummary> objects = ObjectPreflight.list(source).objects();
        List<String> listed =
                objects.stream().map(os -> os.key().substring(prefix.length())).toList();
        assertThat(listed).as("%s", it).hasSize(expected.size());
        assertThat(new HashSet<>(listed)).as("%s", it).isEqualTo(expected.keySet());
        int splits = 0;
        for (ObjectSummary os : objects) {
            splits += source.splitPlanner().plan(os).size();
        }
        if (it.ranges()) {
            assertThat(splits).as("%s: objects cut into ranges", it).isGreaterThan(objects.size());
        } else {
            assertThat(splits).as("%s", it).isEqualTo(objects.size());
        }
        return splits;
    }

    private int runBounded(
            Iteration it, IngestOptions o, IngestSettings settings, Map<String, Long> expected)
            throws Exception {
        S3Source<Block> source = IngestPipeline.source(o, TableSchema.parse(DDL), settings);
        int splits = checkListing(it, source, "", expected);
        StreamExecutionEnvironment env = environment(it, o);
        IngestPipeline.addTo(
                env,
                source,
                IngestPipeline.sink(
                        o, io.github.s3mergetree.engine.table.TableDefinition.parse(DDL), settings),
                o);
        env.execute(it.toString());
        return splits;
    }

    private static int runCommand(
            Iteration it,
            List<String> args,
            IngestOptions o,
            IngestSettings settings,
            Map<String, Long> expected)
            throws Exception {
        S3Source<Block> source = IngestPipeline.source(o, TableSchema.parse(DDL), settings);
        int splits = checkListing(it, source, "", expected);
        IngestFixture.Result r = IngestFixture.runInProcess(args);
        assertThat(r.code()).as("%s, stderr:\n%s", it, r.err()).isZero();
        assertThat(r.field("rows")).as("%s", it).isEqualTo(sum(expected));
        assertThat(r.err()).as("%s", it).contains("input: " + expected.size() + " objects");
        return splits;
    }

    /**
     * A continuous ingest of a fresh prefix: half the objects are there at the start, the other
     * half arrive once rows are committed; after every row is in, the job goes on discovering for a
     * while (listing the same objects again and again) before it is cancelled.
     */
    private int runContinuous(
            Iteration it,
            String prefix,
            IngestOptions o,
            IngestSettings settings,
            Map<String, Long> expected)
            throws Exception {
        Path target = Files.createDirectories(dir.resolve(prefix));
        // ORDERED discovery expects keys to arrive in S3's order: the first wave is the first
        // half of the keys in that order; UNORDERED gets every other key, in no useful order
        List<String> names = new ArrayList<>(expected.keySet());
        names.sort(KeyOrder.S3);
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            boolean early =
                    it.discoveryMode().equals("ordered") ? i < names.size() / 2 : i % 2 == 0;
            (early ? first : second).add(names.get(i));
        }
        long firstHalf = 0;
        for (String name : first) {
            copyIn(name, target);
            firstHalf += expected.get(name);
        }
        S3Source<Block> source = IngestPipeline.source(o, TableSchema.parse(DDL), settings);
        StreamExecutionEnvironment env = environment(it, o);
        IngestPipeline.addTo(
                env,
                source,
                IngestPipeline.sink(
                        o, io.github.s3mergetree.engine.table.TableDefinition.parse(DDL), settings),
                o);
        org.apache.flink.core.execution.JobClient job = env.executeAsync(it.toString());
        try {
            awaitCommitted(it, Path.of(o.tablePath()), firstHalf);
            for (String name : second) {
                copyIn(name, target);
            }
            awaitCommitted(it, Path.of(o.tablePath()), sum(expected));
            // a dozen more listings of the same objects: nothing may be read again
            Thread.sleep(12 * o.discoveryInterval().toMillis() + 1000);
            assertThat(committed(Path.of(o.tablePath()))).as("%s", it).isEqualTo(sum(expected));
        } finally {
            job.cancel().get(1, java.util.concurrent.TimeUnit.MINUTES);
            try {
                job.getJobExecutionResult().get(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (java.util.concurrent.ExecutionException expectedCancellation) {
                // cancelled
            }
        }
        return checkListing(it, source, prefix, expected);
    }

    /** An environment on the shared cluster, the table directory created as the command does. */
    private static StreamExecutionEnvironment environment(Iteration it, IngestOptions o)
            throws IOException {
        Files.createDirectories(Path.of(o.tablePath()));
        try (TableStore store = TableStore.local(o.tablePath())) {
            MergeTreeTable.createIfAbsent(store, TableLayouts.fromDdl(DDL).ddl());
        }
        StreamExecutionEnvironment env = new TestStreamEnvironment(cluster, it.parallelism());
        env.enableCheckpointing(o.checkpointInterval().toMillis());
        return env;
    }

    /** Copies object {@code name} into {@code target} as an S3 PUT would: whole, at once. */
    private void copyIn(String name, Path target) throws IOException {
        Path staging = Files.createDirectories(tmp.resolve("staging")).resolve("object");
        Files.copy(dir.resolve(name), staging, StandardCopyOption.REPLACE_EXISTING);
        Files.move(staging, target.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static void awaitCommitted(Iteration it, Path table, long rows) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (committed(table) < rows) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        it + ": " + committed(table) + " rows committed, waited for " + rows);
            }
            Thread.sleep(100);
        }
    }

    /** Rows the table's part log says were inserted. */
    private static long committed(Path table) throws IOException {
        if (!Files.isDirectory(table)) {
            return 0;
        }
        return new TableProgress(table).snapshot(0).rows();
    }

    /** Rows per {@code key} value in the table's active parts; every id at most once. */
    private static Map<String, Long> rowsByKey(Path table) throws IOException {
        MergeTreeTable t =
                MergeTreeTable.open(
                        TableStore.local(table.toString()),
                        TableLayouts.fromDdl(DDL),
                        Clock.systemUTC());
        Map<String, Long> out = new TreeMap<>();
        Set<Long> ids = new HashSet<>();
        for (ActivePart p : t.activeParts()) {
            Block b = PartReader.open(t.store(), p.name().toString()).read(List.of("key", "id"));
            StringColumn keys = (StringColumn) b.column(0);
            LongColumn idColumn = (LongColumn) b.column(1);
            for (int r = 0; r < b.rows(); r++) {
                out.merge(keys.getString(r), 1L, Long::sum);
                assertThat(ids.add(idColumn.get(r)))
                        .as("id %d of %s twice", idColumn.get(r), keys.getString(r))
                        .isTrue();
            }
        }
        return out;
    }

    private static long sum(Map<String, Long> rows) {
        return rows.values().stream().mapToLong(Long::longValue).sum();
    }

    /** A Parquet object of {@code rows} rows (key, id), in row groups of a few dozen rows. */
    private static void writeParquet(Path file, String key, long firstId, int rows)
            throws IOException {
        MessageType type =
                MessageTypeParser.parseMessageType(
                        "message k { required binary key (UTF8); required int64 id; }");
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> w =
                ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withConf(new org.apache.hadoop.conf.Configuration(false))
                        .withType(type)
                        .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                        .withRowGroupSize(1024L)
                        .withPageSize(512)
                        .withDictionaryEncoding(false)
                        .build()) {
            for (long id = firstId; id < firstId + rows; id++) {
                w.write(groups.newGroup().append("key", key).append("id", id));
            }
        }
    }

    /** A TabSeparated object of {@code rows} lines {@code key<TAB>id} (no key needs escaping). */
    private static void writeTsv(Path file, String key, long firstId, int rows) throws IOException {
        StringBuilder b = new StringBuilder();
        for (long id = firstId; id < firstId + rows; id++) {
            b.append(key).append('\t').append(id).append('\n');
        }
        Files.writeString(file, b, StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(f);
            }
        }
    }
}
