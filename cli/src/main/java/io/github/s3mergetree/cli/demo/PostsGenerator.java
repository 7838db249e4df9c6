package io.github.s3mergetree.cli.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Writes StackOverflow-posts-like rows (the schema of {@link #COLUMNS}) as Parquet files, with
 * deterministic pseudo-random values in the manner of {@code tools/gen-posts.js}: every value is a
 * hash of (seed, Id, column).
 */
public final class PostsGenerator {
    static final String ENUM =
            "Enum8('Question' = 1, 'Answer' = 2, 'Wiki' = 3, 'TagWikiExcerpt' = 4, 'TagWiki' = 5,"
                    + " 'ModeratorNomination' = 6, 'WikiPlaceholder' = 7, 'PrivilegeWiki' = 8)";

    /** The posts table's columns (ClickHouse types). */
    public static final String COLUMNS =
            "Id Int32, PostTypeId "
                    + ENUM
                    + ", AcceptedAnswerId UInt32, CreationDate DateTime64(3, 'UTC'), Score Int32,"
                    + " ViewCount UInt32, Body String, OwnerUserId Int32, OwnerDisplayName String,"
                    + " LastEditorUserId Int32, LastEditorDisplayName String,"
                    + " LastEditDate DateTime64(3, 'UTC'), LastActivityDate DateTime64(3, 'UTC'),"
                    + " Title String, Tags String, AnswerCount UInt16, CommentCount UInt8,"
                    + " FavoriteCount UInt8, ContentLicense LowCardinality(String), ParentId String,"
                    + " CommunityOwnedDate DateTime64(3, 'UTC'), ClosedDate DateTime64(3, 'UTC')";

    /** The posts table (as {@code ../shared/tools/posts.sql} defines it). */
    public static final String DDL =
            "CREATE TABLE posts ("
                    + COLUMNS
                    + ") ENGINE = MergeTree PARTITION BY toYear(CreationDate)"
                    + " ORDER BY (PostTypeId, toDate(CreationDate), CreationDate)";

    private static final String PARQUET_SCHEMA =
            "message posts {"
                    + " required int32 Id;"
                    + " required binary PostTypeId (STRING);"
                    + " required int32 AcceptedAnswerId (INTEGER(32,false));"
                    + " required int64 CreationDate (TIMESTAMP(MILLIS,true));"
                    + " required int32 Score;"
                    + " required int32 ViewCount (INTEGER(32,false));"
                    + " required binary Body (STRING);"
                    + " required int32 OwnerUserId;"
                    + " required binary OwnerDisplayName (STRING);"
                    + " required int32 LastEditorUserId;"
                    + " required binary LastEditorDisplayName (STRING);"
                    + " required int64 LastEditDate (TIMESTAMP(MILLIS,true));"
                    + " required int64 LastActivityDate (TIMESTAMP(MILLIS,true));"
                    + " required binary Title (STRING);"
                    + " required binary Tags (STRING);"
                    + " required int32 AnswerCount (INTEGER(16,false));"
                    + " required int32 CommentCount (INTEGER(8,false));"
                    + " required int32 FavoriteCount (INTEGER(8,false));"
                    + " required binary ContentLicense (STRING);"
                    + " required binary ParentId (STRING);"
                    + " required int64 CommunityOwnedDate (TIMESTAMP(MILLIS,true));"
                    + " required int64 ClosedDate (TIMESTAMP(MILLIS,true));"
                    + " }";

    private static final String[] WORDS =
            ("the of and to a in is it you that he was for on are with as I his they be at one"
                            + " have this from or had by hot word but what some we can out other"
                            + " were all there when up use your how said an each she which do their"
                            + " time if will way about many then them write would like so these her"
                            + " long make thing see him two has look more day could go come did"
                            + " number sound no most people my over know water than call first who"
                            + " may down side been now find any new work part take get place made"
                            + " live where after back little only round man year came show every"
                            + " good me give our under name very through just form sentence great"
                            + " think say help low line differ turn cause much mean before move"
                            + " right boy old too same tell does set three want air well also play"
                            + " small end put home read hand port large spell add even land here"
                            + " must big high such follow act why ask men change went light kind"
                            + " off need house picture try us again animal point mother world near"
                            + " build self earth father java python flink clickhouse merge tree"
                            + " parquet stream")
                    .split(" ");

    private static final String[] LICENSES = {"CC BY-SA 2.5", "CC BY-SA 3.0", "CC BY-SA 4.0"};

    /** 2008-07-01T00:00:00Z: the first posts; creation dates span 18 months from here. */
    private static final long START_MS = Instant.parse("2008-07-01T00:00:00Z").toEpochMilli();

    private static final long DAY_MS = 86_400_000L;
    private static final long SPAN_MS = 549L * DAY_MS;

    private static final org.apache.hadoop.conf.Configuration CONF =
            new org.apache.hadoop.conf.Configuration(false);

    private final long seed;

    public PostsGenerator(long seed) {
        this.seed = seed;
    }

    /**
     * Writes rows with Ids {@code [firstId, firstId + rows)} to {@code file} (Snappy-compressed
     * Parquet); returns the file's size.
     */
    public long write(Path file, long firstId, long rows) throws IOException {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        MessageType type = MessageTypeParser.parseMessageType(PARQUET_SCHEMA);
        SimpleGroupFactory groups = new SimpleGroupFactory(type);
        StringBuilder s = new StringBuilder(1024);
        try (ParquetWriter<Group> w =
                ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withConf(CONF)
                        .withType(type)
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withRowGroupSize(64L * 1024 * 1024)
                        .withPageSize(256 * 1024)
                        .withDictionaryEncoding(true)
                        .build()) {
            for (long id = firstId; id < firstId + rows; id++) {
                w.write(row(groups.newGroup(), id, s));
            }
        }
        return Files.size(file);
    }

    private Group row(Group g, long id, StringBuilder s) {
        boolean question = h(id, 1) % 2 == 0;
        long created = START_MS + h(id, 4) % SPAN_MS;
        g.add("Id", (int) id);
        g.add("PostTypeId", question ? "Question" : "Answer");
        g.add("AcceptedAnswerId", h(id, 2) % 3 == 0 ? (int) (h(id, 3) % 80_000_000) : 0);
        g.add("CreationDate", created);
        g.add("Score", (int) (h(id, 5) % 50) - 5);
        g.add("ViewCount", (int) (h(id, 6) % 100_000));
        g.add("Body", text(s, id, 7, 10, 120));
        g.add("OwnerUserId", (int) (h(id, 8) % 5_000_000));
        g.add("OwnerDisplayName", h(id, 9) % 10 == 0 ? "user" + h(id, 10) % 50_000 : "");
        g.add("LastEditorUserId", (int) (h(id, 11) % 5_000_000));
        g.add("LastEditorDisplayName", h(id, 12) % 20 == 0 ? "editor" + h(id, 13) % 1000 : "");
        g.add("LastEditDate", created + h(id, 14) % (60 * DAY_MS));
        g.add("LastActivityDate", created + h(id, 15) % (90 * DAY_MS));
        g.add("Title", question ? text(s, id, 16, 4, 10) : "");
        s.setLength(0);
        for (long i = 0, n = h(id, 17) % 5; i < n; i++) {
            s.append('<').append(WORDS[(int) (h(id, 17, i) % WORDS.length)]).append('>');
        }
        g.add("Tags", s.toString());
        g.add("AnswerCount", (int) (h(id, 18) % 30));
        g.add("CommentCount", (int) (h(id, 19) % 40));
        g.add("FavoriteCount", (int) (h(id, 20) % 10));
        g.add("ContentLicense", LICENSES[(int) (h(id, 21) % 3)]);
        g.add("ParentId", question ? "" : Long.toString(h(id, 22) % 80_000_000));
        g.add("CommunityOwnedDate", 0L);
        g.add("ClosedDate", h(id, 23) % 50 == 0 ? created + (h(id, 24) % 200) * DAY_MS : 0L);
        return g;
    }

    private String text(StringBuilder s, long id, int k, int minWords, int spanWords) {
        s.setLength(0);
        long n = minWords + h(id, k) % spanWords;
        for (long i = 0; i < n; i++) {
            if (i > 0) {
                s.append(' ');
            }
            s.append(WORDS[(int) (h(id, k, i) % WORDS.length)]);
        }
        return s.toString();
    }

    /** A non-negative hash of (seed, id, k). */
    private long h(long id, int k) {
        return mix(mix(mix(seed) ^ id) ^ k) >>> 1;
    }

    private long h(long id, int k, long i) {
        return mix(mix(mix(mix(seed) ^ id) ^ k) ^ (i + 0x51ed27L)) >>> 1;
    }

    /** SplitMix64's finalizer. */
    private static long mix(long z) {
        z += 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
