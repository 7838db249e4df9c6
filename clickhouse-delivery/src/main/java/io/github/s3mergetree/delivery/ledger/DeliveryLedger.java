package io.github.s3mergetree.delivery.ledger;

import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.engine.part.PartName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What one target (a server's table) has received from the written table, kept in the table's own
 * metadata: {@code s3mergetree_metadata/deliveries/<target key>/}, one object per step, each
 * created with a create-if-absent condition so that two deliverers cannot both take a step.
 *
 * <ul>
 *   <li>{@code <seq>.intent}: a delivery about to be made (its id, method, parts with their UUIDs,
 *       the server's clock), written <em>before</em> anything is sent to the server;
 *   <li>{@code <seq>.outcome}: how it ended (delivered or not, with the evidence);
 *   <li>{@code <seq>.copied}: for ATTACH, that all its parts are in the server's {@code detached/}
 *       directory.
 * </ul>
 *
 * <p>Sequence numbers are consecutive; intent {@code n + 1} is only written once {@code n} has an
 * outcome, so at most one delivery per target is unresolved at any time and the ledger orders
 * deliveries. The parts delivered to the target are those of every intent whose outcome is
 * "delivered". Each target is tracked on its own, so one written table can be delivered into
 * several servers.
 */
public final class DeliveryLedger {
    /** Where the ledgers of every target live, relative to the table's root. */
    public static final String ROOT = "s3mergetree_metadata/deliveries";

    private static final String INTENT_HEADER = "s3mergetree delivery intent 1";
    private static final String OUTCOME_HEADER = "s3mergetree delivery outcome 1";
    private static final String COPIED_HEADER = "s3mergetree delivery copied 1";

    private final TableFiles files;
    private final String targetKey;
    private final TreeMap<Long, DeliveryIntent> intents = new TreeMap<>();
    private final TreeMap<Long, DeliveryOutcome> outcomes = new TreeMap<>();
    private final java.util.Set<Long> copied = new java.util.HashSet<>();

    private DeliveryLedger(TableFiles files, String targetKey) {
        this.files = files;
        this.targetKey = targetKey;
    }

    /** The directory of {@code targetKey}'s ledger, relative to the table's root. */
    public static String directory(String targetKey) {
        return ROOT + "/" + targetKey;
    }

    /** Reads the ledger of {@code targetKey} (empty if the target never got anything). */
    public static DeliveryLedger load(TableFiles files, String targetKey) throws IOException {
        DeliveryLedger l = new DeliveryLedger(files, targetKey);
        String dir = directory(targetKey);
        for (String name : files.listFiles(dir)) {
            int dot = name.indexOf('.');
            if (dot <= 0) {
                continue;
            }
            long seq;
            try {
                seq = Long.parseLong(name.substring(0, dot));
            } catch (NumberFormatException e) {
                continue;
            }
            String kind = name.substring(dot + 1);
            Optional<byte[]> content = files.read(dir + "/" + name);
            if (content.isEmpty()) {
                continue;
            }
            String text = new String(content.get(), StandardCharsets.UTF_8);
            switch (kind) {
                case "intent" ->
                        l.intents.put(
                                seq, parseIntent(seq, text, files.describe(dir + "/" + name)));
                case "outcome" ->
                        l.outcomes.put(
                                seq, parseOutcome(seq, text, files.describe(dir + "/" + name)));
                case "copied" -> l.copied.add(seq);
                default -> {}
            }
        }
        return l;
    }

    public String targetKey() {
        return targetKey;
    }

    /** Every recorded intent, by sequence. */
    public List<DeliveryIntent> intents() {
        return List.copyOf(intents.values());
    }

    public Optional<DeliveryOutcome> outcome(long sequence) {
        return Optional.ofNullable(outcomes.get(sequence));
    }

    /** The delivery recorded but not resolved, if any (at most one). */
    public Optional<DeliveryIntent> pending() {
        for (DeliveryIntent i : intents.values()) {
            if (!outcomes.containsKey(i.sequence())) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** Whether an ATTACH delivery recorded that all its parts are in {@code detached/}. */
    public boolean isCopied(long sequence) {
        return copied.contains(sequence);
    }

    /** The parts the target received, by name (rows as recorded). */
    public Map<PartName, DeliveredPart> deliveredParts() {
        Map<PartName, DeliveredPart> out = new TreeMap<>();
        for (DeliveryIntent i : intents.values()) {
            DeliveryOutcome o = outcomes.get(i.sequence());
            if (o != null && o.delivered()) {
                for (DeliveredPart p : i.parts()) {
                    out.put(p.name(), p);
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Total rows of delivered parts. */
    public long deliveredRows() {
        long r = 0;
        for (DeliveredPart p : deliveredParts().values()) {
            r += p.rows();
        }
        return r;
    }

    /**
     * Records a new delivery as the next sequence number.
     *
     * @throws IllegalStateException if a delivery is still unresolved
     * @throws ConcurrentDeliveryException if another deliverer took that number first
     */
    public DeliveryIntent begin(
            String method, List<DeliveredPart> parts, long serverNowSeconds, long nowMillis)
            throws IOException {
        Optional<DeliveryIntent> p = pending();
        if (p.isPresent()) {
            throw new IllegalStateException("delivery " + p.get().id() + " is not resolved yet");
        }
        long seq = intents.isEmpty() ? 1 : intents.lastKey() + 1;
        String id = "s3mt-" + targetKey + "-" + seq;
        String owner = DeliveryIntent.currentOwner();
        DeliveryIntent intent =
                new DeliveryIntent(seq, id, method, serverNowSeconds, nowMillis, owner, parts);
        StringBuilder b = new StringBuilder(INTENT_HEADER).append('\n');
        b.append("id\t").append(id).append('\n');
        b.append("method\t").append(method).append('\n');
        b.append("server_now\t").append(serverNowSeconds).append('\n');
        b.append("created_ms\t").append(nowMillis).append('\n');
        b.append("owner\t").append(owner).append('\n');
        for (DeliveredPart part : parts) {
            b.append("part\t")
                    .append(part.name())
                    .append('\t')
                    .append(part.rows())
                    .append('\t')
                    .append(part.bytes())
                    .append('\t')
                    .append(part.uuid())
                    .append('\n');
        }
        String path = path(seq, "intent");
        if (!files.createIfAbsent(path, b.toString().getBytes(StandardCharsets.UTF_8))) {
            throw new ConcurrentDeliveryException(
                    "another deliverer recorded delivery "
                            + seq
                            + " to "
                            + targetKey
                            + " first ("
                            + files.describe(path)
                            + ")");
        }
        intents.put(seq, intent);
        return intent;
    }

    /** Records that all parts of ATTACH delivery {@code intent} are in {@code detached/}. */
    public void markCopied(DeliveryIntent intent) throws IOException {
        files.createIfAbsent(
                path(intent.sequence(), "copied"),
                (COPIED_HEADER + "\nid\t" + intent.id() + "\n").getBytes(StandardCharsets.UTF_8));
        copied.add(intent.sequence());
    }

    /**
     * Records how {@code intent} ended.
     *
     * @throws ConcurrentDeliveryException if another deliverer recorded an outcome first (its
     *     record stands; the caller reloads)
     */
    public DeliveryOutcome complete(DeliveryIntent intent, boolean delivered, String evidence)
            throws IOException {
        String text =
                OUTCOME_HEADER
                        + "\nid\t"
                        + intent.id()
                        + "\noutcome\t"
                        + (delivered ? "delivered" : "not_delivered")
                        + "\nevidence\t"
                        + evidence.replace('\n', ' ').replace('\t', ' ')
                        + "\n";
        String path = path(intent.sequence(), "outcome");
        if (!files.createIfAbsent(path, text.getBytes(StandardCharsets.UTF_8))) {
            throw new ConcurrentDeliveryException(
                    "another deliverer recorded the outcome of delivery "
                            + intent.id()
                            + " first ("
                            + files.describe(path)
                            + ")");
        }
        DeliveryOutcome o = new DeliveryOutcome(intent.sequence(), delivered, evidence);
        outcomes.put(intent.sequence(), o);
        return o;
    }

    /** The path of a step's record, relative to the table's root. */
    public String path(long seq, String kind) {
        return directory(targetKey) + "/" + String.format("%010d", seq) + "." + kind;
    }

    /** The directory of a delivery's own files (per-part checksums, uuid.txt, the DDL). */
    public String deliveryDirectory(DeliveryIntent intent) {
        return directory(targetKey) + "/" + String.format("%010d", intent.sequence());
    }

    private static DeliveryIntent parseIntent(long seq, String text, String where)
            throws IOException {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals(INTENT_HEADER)) {
            throw new IOException("not a delivery intent record: " + where);
        }
        String id = null;
        String method = null;
        long serverNow = 0;
        long created = 0;
        String owner = null;
        List<DeliveredPart> parts = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t");
            switch (f[0]) {
                case "id" -> id = f[1];
                case "method" -> method = f[1];
                case "server_now" -> serverNow = Long.parseLong(f[1]);
                case "created_ms" -> created = Long.parseLong(f[1]);
                case "owner" -> owner = f[1];
                case "part" ->
                        parts.add(
                                new DeliveredPart(
                                        PartName.tryParse(f[1])
                                                .orElseThrow(
                                                        () ->
                                                                new IOException(
                                                                        "bad part name "
                                                                                + f[1]
                                                                                + " in "
                                                                                + where)),
                                        Long.parseLong(f[2]),
                                        Long.parseLong(f[3]),
                                        UUID.fromString(f[4])));
                default -> {}
            }
        }
        if (id == null || method == null) {
            throw new IOException("incomplete delivery intent record: " + where);
        }
        return new DeliveryIntent(seq, id, method, serverNow, created, owner, parts);
    }

    private static DeliveryOutcome parseOutcome(long seq, String text, String where)
            throws IOException {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals(OUTCOME_HEADER)) {
            throw new IOException("not a delivery outcome record: " + where);
        }
        Boolean delivered = null;
        String evidence = "";
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t", 2);
            if (f[0].equals("outcome")) {
                delivered = f[1].equals("delivered");
            } else if (f[0].equals("evidence") && f.length > 1) {
                evidence = f[1];
            }
        }
        if (delivered == null) {
            throw new IOException("incomplete delivery outcome record: " + where);
        }
        return new DeliveryOutcome(seq, delivered, evidence);
    }
}
