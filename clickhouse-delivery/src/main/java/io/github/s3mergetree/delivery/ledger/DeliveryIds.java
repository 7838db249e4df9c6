package io.github.s3mergetree.delivery.ledger;

import io.github.s3mergetree.engine.part.PartName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every name a delivery puts on a server, made in one place so that none is shared by two
 * deliveries: the delivery id (the RESTORE's {@code SETTINGS id}, the key of its {@code
 * system.backups} entry), the UUIDs its parts carry, the table name its backup manifest uses, and
 * the names its parts have in the target's {@code detached/} directory.
 *
 * <p>Several written tables may deliver into one server table, each with its own ledger whose
 * sequence numbers start at 1, and a table may be dropped and written again at the same path; a
 * server keeps RESTORE ids until it restarts. So the id is {@code s3mt-<target key>-<tag>-<seq>}:
 * the target's ledger key, a 64-bit tag drawn at random when the ledger records the delivery's
 * intent (before anything is sent), and the ledger's sequence number. The intent stores the id, so
 * every attempt of one delivery (after a crash, by another process) uses the same id, while no two
 * deliveries — of any written table, to any target — share one. Everything else is derived from the
 * id: part UUIDs and detached/ names from the id and the part's name, the backup table from the id.
 */
public final class DeliveryIds {
    /** What every delivery id starts with. */
    public static final String PREFIX = "s3mt-";

    /** Where detached part names put their block numbers: above any real table's. */
    private static final long DETACHED_BLOCK_BASE = 1L << 40;

    private static final Pattern ID =
            Pattern.compile("s3mt-([A-Za-z0-9_.-]+)-([0-9a-f]{16})-([1-9][0-9]*)");
    private static final Pattern UNTAGGED_ID =
            Pattern.compile("s3mt-([A-Za-z0-9_.-]+)-([1-9][0-9]*)");
    private static final SecureRandom RANDOM = new SecureRandom();

    private DeliveryIds() {}

    /** A delivery id's parts: the target's ledger key, the random tag, the sequence number. */
    public record Parsed(String targetKey, String tag, long sequence) {}

    /** A new random tag: 16 lowercase hex digits. */
    public static String newTag() {
        return String.format("%016x", RANDOM.nextLong());
    }

    /**
     * The id of delivery {@code sequence} of the ledger of {@code targetKey}, with {@code tag}
     * ({@link #newTag()}, recorded in the delivery's intent).
     */
    public static String deliveryId(String targetKey, String tag, long sequence) {
        if (targetKey.isEmpty() || !targetKey.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("bad target key '" + targetKey + "'");
        }
        if (!tag.matches("[0-9a-f]{16}")) {
            throw new IllegalArgumentException("bad delivery tag '" + tag + "'");
        }
        if (sequence <= 0) {
            throw new IllegalArgumentException("bad delivery sequence " + sequence);
        }
        return PREFIX + targetKey + "-" + tag + "-" + sequence;
    }

    /** The parts of a delivery id this class made; empty for any other text. */
    public static Optional<Parsed> parse(String id) {
        Matcher m = ID.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Parsed(m.group(1), m.group(2), Long.parseLong(m.group(3))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The parts of an id recorded before ids had a tag, {@code s3mt-<target key>-<seq>} (tag {@code
     * ""}), as an open delivery or a manifest found after an upgrade names it; empty for any other
     * text.
     */
    public static Optional<Parsed> parseUntagged(String id) {
        Matcher m = UNTAGGED_ID.matcher(id);
        if (!m.matches() || ID.matcher(id).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Parsed(m.group(1), "", Long.parseLong(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The UUID part {@code part} carries on the server in delivery {@code deliveryId} ({@code
     * uuid.txt}, {@code system.parts.uuid}): the same for every attempt of that delivery, and
     * another in every other delivery (of this or another written table), so that the parts a
     * recovery finds on the server by UUID are this delivery's.
     */
    public static UUID partUuid(String deliveryId, PartName part) {
        return UUID.nameUUIDFromBytes(
                ("s3mergetree/" + deliveryId + "/" + part).getBytes(StandardCharsets.UTF_8));
    }

    /** The table name ({@code d_<seq>_<hash>}) the delivery's backup manifest gives the table. */
    public static String backupTable(String deliveryId, long sequence) {
        return "d_" + sequence + "_" + hex(deliveryId).substring(0, 16);
    }

    /**
     * The name part {@code part} has in the target's {@code detached/} directory in delivery {@code
     * deliveryId}: the part's partition, level and mutation, with block numbers of its own (derived
     * from the id and the part's name, above {@code 2^40}), so that two written tables' parts of
     * the same name (each table numbers its blocks from 1) never meet there. ATTACH PART gives the
     * part new block numbers in the target anyway. A delivery recorded before ids had a tag (an
     * open one found after an upgrade) copied its parts under their own names, and keeps them.
     */
    public static PartName detachedName(String deliveryId, PartName part) {
        if (parse(deliveryId).isEmpty()) {
            return part;
        }
        byte[] h = digest(deliveryId + "/" + part);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (h[i] & 0xff);
        }
        long width = part.maxBlock() - part.minBlock();
        long min = DETACHED_BLOCK_BASE + Math.floorMod(v, 1L << 52);
        return new PartName(part.partitionId(), min, min + width, part.level(), part.mutation());
    }

    private static String hex(String s) {
        return HexFormat.of().formatHex(digest(s));
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
