package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table as its commit log says it is at one sequence number: every part that exists (active, or
 * outdated since a merge and not yet removed) with its sizes and times, the highest block number
 * ever allocated (block-number allocation is "the next one", derived from the log), and the dedup
 * tokens of the last {@code deduplicationWindow} inserts with the names they got. Derived by
 * applying entries in order ({@link #apply}); serialized as a snapshot so that opening a table
 * reads one snapshot and the entries after it, not the whole log. Not thread-safe: the table guards
 * it.
 */
final class TableState {
    /** What the state knows of one existing part. */
    record PartState(CommittedPart part, long createdSeq, Instant created, Instant outdatedSince) {
        boolean active() {
            return outdatedSince == null;
        }
    }

    /** An insert's dedup token: the entry that committed it and the names its parts got. */
    record TokenRecord(long sequence, List<PartName> names) {}

    private long sequence;
    private long maxBlock;
    private final TreeMap<PartName, PartState> parts = new TreeMap<>();
    private final LinkedHashMap<String, TokenRecord> tokens = new LinkedHashMap<>();
    private final int deduplicationWindow;

    TableState(int deduplicationWindow) {
        this.deduplicationWindow = deduplicationWindow;
    }

    long sequence() {
        return sequence;
    }

    /** The first block number of the next insert. */
    long nextBlockNumber() {
        return maxBlock + 1;
    }

    /** Every existing part, by name. */
    Map<PartName, PartState> parts() {
        return parts;
    }

    /** The active parts, in partition and block order. */
    List<PartState> active() {
        List<PartState> out = new ArrayList<>();
        for (PartState p : parts.values()) {
            if (p.active()) {
                out.add(p);
            }
        }
        return out;
    }

    TokenRecord token(String token) {
        return tokens.get(token);
    }

    /**
     * Whether {@code sources} are exactly the active parts inside their merged range {@code
     * target}: a merge is published only then, so a part committed meanwhile is never covered.
     */
    boolean canMerge(PartName target, List<PartName> sources) {
        List<PartName> inRange = new ArrayList<>();
        for (PartState p : parts.values()) {
            PartName n = p.part().name();
            if (p.active() && (target.contains(n) || n.contains(target))) {
                inRange.add(n);
            }
        }
        List<PartName> expected = new ArrayList<>(sources);
        expected.sort(null);
        return inRange.equals(expected);
    }

    /** Applies the next entry of the log. */
    void apply(Commit c) {
        if (c.sequence() != sequence + 1) {
            throw new IllegalStateException(
                    "commit log entry " + c.sequence() + " follows state " + sequence);
        }
        switch (c.kind()) {
            case INSERT, ATTACH -> {
                for (CommittedPart p : c.parts()) {
                    add(p, c);
                }
                if (c.token() != null) {
                    List<PartName> names = new ArrayList<>();
                    for (CommittedPart p : c.parts()) {
                        names.add(p.name());
                    }
                    tokens.remove(c.token());
                    tokens.put(c.token(), new TokenRecord(c.sequence(), names));
                    trimTokens();
                }
            }
            case MERGE -> {
                for (CommittedPart p : c.parts()) {
                    add(p, c);
                }
                for (PartName s : c.sources()) {
                    PartState old = parts.get(s);
                    if (old != null && old.active()) {
                        parts.put(
                                s,
                                new PartState(
                                        old.part(), old.createdSeq(), old.created(), c.time()));
                    }
                }
            }
            case REMOVE, DETACH -> {
                for (PartName r : c.removed()) {
                    parts.remove(r);
                }
                for (PartName r : c.reactivated()) {
                    PartState old = parts.get(r);
                    if (old != null) {
                        parts.put(
                                r,
                                new PartState(old.part(), old.createdSeq(), old.created(), null));
                    }
                }
            }
        }
        sequence = c.sequence();
    }

    private void add(CommittedPart p, Commit c) {
        parts.put(p.name(), new PartState(p, c.sequence(), c.time(), null));
        maxBlock = Math.max(maxBlock, p.name().maxBlock());
    }

    private void trimTokens() {
        Iterator<String> it = tokens.keySet().iterator();
        while (tokens.size() > Math.max(0, deduplicationWindow) && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    // --------------------------------------------------------------- snapshots

    byte[] toSnapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", 1L);
        m.put("seq", sequence);
        m.put("max_block", maxBlock);
        List<Object> ps = new ArrayList<>();
        for (PartState p : parts.values()) {
            Map<String, Object> j = p.part().toJson();
            j.put("created_seq", p.createdSeq());
            j.put("created", p.created().toEpochMilli());
            if (p.outdatedSince() != null) {
                j.put("outdated", p.outdatedSince().toEpochMilli());
            }
            ps.add(j);
        }
        m.put("parts", ps);
        List<Object> ts = new ArrayList<>();
        for (Map.Entry<String, TokenRecord> e : tokens.entrySet()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("token", e.getKey());
            t.put("seq", e.getValue().sequence());
            List<Object> names = new ArrayList<>();
            for (PartName n : e.getValue().names()) {
                names.add(n.toString());
            }
            t.put("names", names);
            ts.add(t);
        }
        m.put("tokens", ts);
        return (Json.write(m) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static TableState fromSnapshot(byte[] bytes, String what, int deduplicationWindow) {
        Map<String, Object> m =
                Json.object(Json.parse(new String(bytes, StandardCharsets.UTF_8), what), what);
        if (Json.number(m, "format", 1) != 1) {
            throw new IllegalArgumentException(what + " has an unknown format");
        }
        TableState s = new TableState(deduplicationWindow);
        s.sequence = Json.number(m, "seq", 0);
        s.maxBlock = Json.number(m, "max_block", 0);
        for (Object o : Json.array(m, "parts")) {
            Map<String, Object> j = Json.object(o, what + " part");
            CommittedPart p = CommittedPart.fromJson(j);
            long outdated = Json.number(j, "outdated", -1);
            s.parts.put(
                    p.name(),
                    new PartState(
                            p,
                            Json.number(j, "created_seq", 0),
                            Instant.ofEpochMilli(Json.number(j, "created", 0)),
                            outdated < 0 ? null : Instant.ofEpochMilli(outdated)));
        }
        for (Object o : Json.array(m, "tokens")) {
            Map<String, Object> t = Json.object(o, what + " token");
            s.tokens.put(
                    Json.string(t, "token"),
                    new TokenRecord(
                            Json.number(t, "seq", 0), Commit.parseNames(Json.array(t, "names"))));
        }
        return s;
    }

    /** A copy (for readers that must not see later changes). */
    TableState copy() {
        TableState c = new TableState(deduplicationWindow);
        c.sequence = sequence;
        c.maxBlock = maxBlock;
        c.parts.putAll(parts);
        c.tokens.putAll(tokens);
        return c;
    }

    /** Parts per partition id, active ones only, in block order. */
    Map<String, List<PartState>> activeByPartition() {
        Map<String, List<PartState>> out = new LinkedHashMap<>();
        for (PartState p : active()) {
            out.computeIfAbsent(p.part().name().partitionId(), k -> new ArrayList<>()).add(p);
        }
        return out;
    }

    /** Names of every existing part (for orphan detection). */
    Map<String, PartName> partNamesByString() {
        Map<String, PartName> out = new HashMap<>();
        for (PartName n : parts.keySet()) {
            out.put(n.toString(), n);
        }
        return out;
    }
}
