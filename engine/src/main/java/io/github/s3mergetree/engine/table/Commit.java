package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of the table's commit log ({@code s3mergetree_metadata/log/<seq>.json}): what changed
 * at sequence number {@code sequence}. Entries are created with {@code If-None-Match: *}, so each
 * sequence number has exactly one entry and the log orders every change of the table.
 *
 * @param sequence the entry's sequence number (1, 2, …)
 * @param time when the writer committed it (the table's clock: part ages and lifetimes are measured
 *     from these times, not from file modification times)
 * @param id a random id of the entry, by which a writer recognizes its own entry after a retry
 * @param kind what changed
 * @param token an insert's dedup token (null without deduplication)
 * @param parts the parts added (an insert's, a merge's result, parts attached at creation)
 * @param sources a merge's source parts (outdated from this entry on)
 * @param removed parts removed (after {@code old_parts_lifetime}) or detached
 * @param reactivated parts a detach made active again (the sources of a broken merged part)
 * @param reason why parts were detached
 */
public record Commit(
        long sequence,
        Instant time,
        String id,
        Kind kind,
        String token,
        List<CommittedPart> parts,
        List<PartName> sources,
        List<PartName> removed,
        List<PartName> reactivated,
        String reason) {

    /** What an entry does. */
    public enum Kind {
        /** Inserted parts, with block numbers allocated by this entry. */
        INSERT,
        /** A merged part replacing its sources. */
        MERGE,
        /** Outdated parts deleted. */
        REMOVE,
        /** Broken parts moved to {@code detached/}. */
        DETACH,
        /** Parts that were in the directory when the table got its log (an older table). */
        ATTACH
    }

    /** Validates and copies. */
    public Commit {
        Objects.requireNonNull(kind, "kind");
        parts = List.copyOf(parts);
        sources = List.copyOf(sources);
        removed = List.copyOf(removed);
        reactivated = List.copyOf(reactivated);
    }

    byte[] toBytes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", 1L);
        m.put("seq", sequence);
        m.put("time", time.toEpochMilli());
        m.put("id", id);
        m.put("kind", kind.name().toLowerCase(java.util.Locale.ROOT));
        if (token != null) {
            m.put("token", token);
        }
        List<Object> ps = new ArrayList<>();
        for (CommittedPart p : parts) {
            ps.add(p.toJson());
        }
        m.put("parts", ps);
        if (!sources.isEmpty()) {
            m.put("sources", names(sources));
        }
        if (!removed.isEmpty()) {
            m.put("removed", names(removed));
        }
        if (!reactivated.isEmpty()) {
            m.put("reactivated", names(reactivated));
        }
        if (reason != null) {
            m.put("reason", reason);
        }
        return (Json.write(m) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static List<Object> names(List<PartName> l) {
        List<Object> out = new ArrayList<>();
        for (PartName p : l) {
            out.add(p.toString());
        }
        return out;
    }

    static List<PartName> parseNames(List<?> l) {
        List<PartName> out = new ArrayList<>();
        for (Object o : l) {
            String s = String.valueOf(o);
            out.add(
                    PartName.tryParse(s)
                            .orElseThrow(() -> new IllegalArgumentException("bad part name " + s)));
        }
        return out;
    }

    static Commit parse(byte[] bytes, String what) {
        Map<String, Object> m =
                Json.object(Json.parse(new String(bytes, StandardCharsets.UTF_8), what), what);
        long format = Json.number(m, "format", 1);
        if (format != 1) {
            throw new IllegalArgumentException(
                    what + " has format " + format + "; this version reads format 1");
        }
        List<CommittedPart> parts = new ArrayList<>();
        for (Object p : Json.array(m, "parts")) {
            parts.add(CommittedPart.fromJson(p));
        }
        return new Commit(
                Json.number(m, "seq", -1),
                Instant.ofEpochMilli(Json.number(m, "time", 0)),
                Json.string(m, "id"),
                Kind.valueOf(Json.string(m, "kind").toUpperCase(java.util.Locale.ROOT)),
                Json.string(m, "token"),
                parts,
                parseNames(Json.array(m, "sources")),
                parseNames(Json.array(m, "removed")),
                parseNames(Json.array(m, "reactivated")),
                Json.string(m, "reason"));
    }
}
