package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One writer at a time for one job of a table, across processes and hosts: a lease object in the
 * table's store (e.g. {@code s3mergetree_metadata/ingest-<key>/lease.json}), taken and kept with
 * the store's conditional writes only, so it works wherever the table's commit log does (S3 with
 * {@code If-None-Match} / {@code If-Match}, and a local directory, whose POSIX store gives the same
 * guarantees across processes).
 *
 * <ul>
 *   <li>{@link #acquire}: creates the lease ({@code If-None-Match: *}, epoch 1), or takes over an
 *       expired or released one ({@code If-Match} on the ETag read, epoch + 1), so of two takers
 *       exactly one wins. A live lease of another writer is refused at once with {@link
 *       WriterLeaseHeldException}, whose one-line message names the table, the holder and the
 *       expiry. A lease whose holder the caller's {@link Liveness} knows dead (e.g. a process of
 *       this machine killed with -9) is taken over without waiting for its expiry.
 *   <li>{@link #renew}: a heartbeat pushes the expiry forward ({@code If-Match}); a renewal that
 *       finds another owner reports the lease lost.
 *   <li>{@link #check} / {@link #fence}: fencing. The epoch only grows; a writer about to commit
 *       proves that the lease still names its owner id and epoch, else {@link
 *       WriterFencedException}. An expired lease nobody took over still fences nobody out: only a
 *       new holder does.
 * </ul>
 *
 * <p>A conditional write that is retried after a lost response answers 412 although the first
 * attempt succeeded; every such answer is resolved by reading the lease again and recognising this
 * writer's own owner id, never as a conflict. Times come from the injected {@link Clock}.
 */
public final class WriterLease implements AutoCloseable {
    /** The lease's lifetime after each renewal by default (a heartbeat renews every third). */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    private static final int MAX_ROUNDS = 16;

    private final TableStore store;
    private final String key;
    private final Clock clock;
    private final Duration ttl;
    private final Holder holder;
    private final String owner;
    private final long epoch;
    private String etag;
    private volatile boolean lost;

    private WriterLease(
            TableStore store,
            String key,
            Clock clock,
            Duration ttl,
            Holder holder,
            String owner,
            long epoch,
            String etag) {
        this.store = store;
        this.key = key;
        this.clock = clock;
        this.ttl = ttl;
        this.holder = holder;
        this.owner = owner;
        this.epoch = epoch;
        this.etag = etag;
    }

    /**
     * Who holds a lease, for messages ({@code host}, {@code pid}) and for the liveness check of
     * {@link Liveness} ({@code process}: an identity the holder's environment defines).
     */
    public record Holder(String host, long pid, String process) {}

    /** Decides whether the holder of a live lease is known to be gone. */
    @FunctionalInterface
    public interface Liveness {
        /** Nobody is known dead: a live lease is always respected until it expires. */
        Liveness NEVER_DEAD = h -> false;

        /** Whether {@code holder} is certainly not running any more. */
        boolean isDead(Holder holder);
    }

    /** The fencing token of a lease, to check from another process (the job's committer). */
    public record Fence(String key, String owner, long epoch) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates. */
        public Fence {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(owner, "owner");
            if (epoch < 1) {
                throw new IllegalArgumentException("a lease epoch is >= 1, got " + epoch);
            }
        }

        /** A commit fence of {@code store}: {@link WriterLease#check} of this token. */
        public CommitFence on(TableStore store) {
            return () -> WriterLease.check(store, key, owner, epoch);
        }
    }

    /**
     * Takes the lease {@code key} of {@code store} for {@code ttl} as {@code self}: creates it, or
     * takes over one that expired (by {@code clock}) or whose holder {@code liveness} knows dead.
     *
     * @throws WriterLeaseHeldException if another writer holds it
     */
    public static WriterLease acquire(
            TableStore store, String key, Duration ttl, Clock clock, Holder self, Liveness liveness)
            throws IOException {
        return acquire(store, key, ttl, clock, self, liveness, false);
    }

    /**
     * Takes the lease as {@link #acquire(TableStore, String, Duration, Clock, Holder, Liveness)};
     * with {@code adopt}, a lease taken over keeps its owner id and epoch (only the holder and the
     * expiry change), so that a job the previous holder started on a cluster — which outlives it
     * and commits under its fence — goes on committing: for a run that continues that job (waits
     * for it) instead of replacing it. Still exclusive: the takeover is an {@code If-Match} write.
     */
    public static WriterLease acquire(
            TableStore store,
            String key,
            Duration ttl,
            Clock clock,
            Holder self,
            Liveness liveness,
            boolean adopt)
            throws IOException {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a lease lasts more than 0 ms, got " + ttl);
        }
        String owner = UUID.randomUUID().toString();
        String adopted = null;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Optional<TableStore.Versioned> current = store.readVersioned(key);
            long now = clock.millis();
            if (current.isEmpty()) {
                Record mine = new Record(owner, 1, now + ttl.toMillis(), self);
                // false: another writer created it first, or a retried create of ours answered
                // 412; the next round reads which
                store.createIfAbsent(key, mine.toBytes());
                continue;
            }
            Record held = Record.parse(current.get().content(), store.describe(key));
            if (held.owner().equals(owner)
                    || (held.owner().equals(adopted) && held.holder().equals(self))) {
                return new WriterLease(
                        store,
                        key,
                        clock,
                        ttl,
                        self,
                        held.owner(),
                        held.epoch(),
                        current.get().etag());
            }
            boolean expired = held.expiresMillis() <= now;
            if (!expired && !liveness.isDead(held.holder())) {
                throw new WriterLeaseHeldException(heldMessage(store, key, held));
            }
            Record mine =
                    adopt
                            ? new Record(held.owner(), held.epoch(), now + ttl.toMillis(), self)
                            : new Record(owner, held.epoch() + 1, now + ttl.toMillis(), self);
            if (adopt) {
                adopted = held.owner();
            }
            Optional<String> replaced =
                    store.replaceIfMatch(key, mine.toBytes(), current.get().etag());
            if (replaced.isPresent()) {
                return new WriterLease(
                        store, key, clock, ttl, self, mine.owner(), mine.epoch(), replaced.get());
            }
            // another taker won, or our retried replace answered 412: the next round reads which
        }
        throw new IOException(
                "could not take the writer lease "
                        + store.describe(key)
                        + ": it changed "
                        + MAX_ROUNDS
                        + " times while being taken");
    }

    private static String heldMessage(TableStore store, String key, Record held) {
        return "the table "
                + store.location()
                + " is being written by another process (host "
                + held.holder().host()
                + ", pid "
                + held.holder().pid()
                + ") whose lease "
                + store.describe(key)
                + " expires at "
                + Instant.ofEpochMilli(held.expiresMillis())
                + " unless renewed; run again when that writer has ended";
    }

    /** The lease object's key in the store. */
    public String key() {
        return key;
    }

    /** This holder's owner id (unique per acquisition). */
    public String owner() {
        return owner;
    }

    /** The fencing epoch: one more than the epoch of the lease this holder took over. */
    public long epoch() {
        return epoch;
    }

    /** This holder's fencing token. */
    public Fence fence() {
        return new Fence(key, owner, epoch);
    }

    /** Whether a renewal or check found the lease taken by another writer. */
    public boolean lost() {
        return lost;
    }

    /**
     * Pushes the expiry to now + ttl. A 412 is resolved by reading the lease: still this owner and
     * epoch (a retried renewal whose first attempt succeeded) is renewed, anything else is lost.
     *
     * @return false if the lease was lost (from then on {@link #lost()})
     */
    public synchronized boolean renew() throws IOException {
        if (lost) {
            return false;
        }
        Record mine = new Record(owner, epoch, clock.millis() + ttl.toMillis(), holder);
        Optional<String> replaced = store.replaceIfMatch(key, mine.toBytes(), etag);
        if (replaced.isPresent()) {
            etag = replaced.get();
            return true;
        }
        Optional<TableStore.Versioned> current = store.readVersioned(key);
        if (current.isPresent() && isMine(Record.parse(current.get().content(), key))) {
            etag = current.get().etag();
            return true;
        }
        lost = true;
        return false;
    }

    /** Throws {@link WriterFencedException} unless the lease still names this owner and epoch. */
    public void check() throws IOException {
        try {
            check(store, key, owner, epoch);
        } catch (WriterFencedException e) {
            lost = true;
            throw e;
        }
    }

    /**
     * Throws {@link WriterFencedException} unless lease {@code key} of {@code store} names {@code
     * owner} at {@code epoch}.
     */
    public static void check(TableStore store, String key, String owner, long epoch)
            throws IOException {
        Optional<byte[]> bytes = store.readIfExists(key);
        if (bytes.isEmpty()) {
            throw new WriterFencedException(
                    "this writer (lease epoch "
                            + epoch
                            + ") no longer holds the writer lease "
                            + store.describe(key)
                            + ": it was deleted; nothing more is committed by this writer");
        }
        Record r = Record.parse(bytes.get(), store.describe(key));
        if (!r.owner().equals(owner) || r.epoch() != epoch) {
            throw new WriterFencedException(
                    "this writer (lease epoch "
                            + epoch
                            + ") no longer holds the writer lease "
                            + store.describe(key)
                            + ": host "
                            + r.holder().host()
                            + " pid "
                            + r.holder().pid()
                            + " took it over at epoch "
                            + r.epoch()
                            + " (this writer was paused past the lease's expiry?); nothing more is"
                            + " committed by this writer");
        }
    }

    private boolean isMine(Record r) {
        return r.owner().equals(owner) && r.epoch() == epoch;
    }

    /**
     * Releases the lease: writes it expired (keeping its epoch, so that epochs keep growing) if it
     * is still this writer's; a lost lease is left alone.
     */
    @Override
    public synchronized void close() throws IOException {
        if (lost) {
            return;
        }
        lost = true;
        store.replaceIfMatch(key, new Record(owner, epoch, 0, holder).toBytes(), etag);
    }

    /** The lease object's content. */
    record Record(String owner, long epoch, long expiresMillis, Holder holder) {
        byte[] toBytes() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("owner", owner);
            m.put("epoch", epoch);
            m.put("expires_ms", expiresMillis);
            m.put("expires", Instant.ofEpochMilli(expiresMillis).toString());
            m.put("host", holder.host());
            m.put("pid", holder.pid());
            m.put("process", holder.process());
            return Json.write(m).getBytes(StandardCharsets.UTF_8);
        }

        static Record parse(byte[] bytes, String what) throws IOException {
            try {
                Map<String, Object> m =
                        Json.object(
                                Json.parse(new String(bytes, StandardCharsets.UTF_8), what), what);
                String owner = Json.string(m, "owner");
                long epoch = Json.number(m, "epoch", -1);
                if (owner == null || epoch < 1) {
                    throw new IllegalArgumentException(
                            what
                                    + " has no owner or epoch: "
                                    + new String(bytes, StandardCharsets.UTF_8));
                }
                String host = Json.string(m, "host");
                String process = Json.string(m, "process");
                return new Record(
                        owner,
                        epoch,
                        Json.number(m, "expires_ms", 0),
                        new Holder(
                                host == null ? "?" : host,
                                Json.number(m, "pid", -1),
                                process == null ? "" : process));
            } catch (IllegalArgumentException e) {
                throw new IOException("unreadable writer lease " + what + ": " + e.getMessage(), e);
            }
        }
    }
}
