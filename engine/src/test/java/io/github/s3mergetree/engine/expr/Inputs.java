package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Generates raw test values for a type: its boundaries, DST transitions and random values. */
final class Inputs {
    private Inputs() {}

    static final long DT64_MIN = -2208988800L; // 1900-01-01 00:00:00 UTC
    static final long DT64_MAX = 10413791999L; // 2299-12-31 23:59:59 UTC

    /** {@code n} values (raw: day numbers, seconds or ticks) of {@code t}. */
    static long[] values(DataType t, int n, long seed) {
        Random rnd = new Random(seed);
        Set<Long> out = new LinkedHashSet<>();
        ZoneId zone = zoneOf(t);
        switch (t.kind()) {
            case UINT8 -> add(out, rnd, n, 0, 255, 0, 1, 127, 128, 254, 255);
            case INT8 -> add(out, rnd, n, -128, 127, -128, -127, -1, 0, 1, 127);
            case UINT16 -> add(out, rnd, n, 0, 65535, 0, 1, 255, 256, 32767, 32768, 65535);
            case INT16 -> add(out, rnd, n, -32768, 32767, -32768, -1, 0, 1, 32767);
            case UINT32 ->
                    add(
                            out,
                            rnd,
                            n,
                            0,
                            0xFFFFFFFFL,
                            0,
                            1,
                            65535,
                            65536,
                            2147483647L,
                            2147483648L,
                            4294967295L);
            case INT32 ->
                    add(
                            out,
                            rnd,
                            n,
                            Integer.MIN_VALUE,
                            Integer.MAX_VALUE,
                            Integer.MIN_VALUE,
                            -1,
                            0,
                            1,
                            Integer.MAX_VALUE);
            case UINT64, INT64 -> {
                out.add(0L);
                out.add(1L);
                out.add(-1L);
                out.add(Long.MIN_VALUE);
                out.add(Long.MAX_VALUE);
                out.add(255L);
                out.add(65536L);
                out.add(4294967296L);
                while (out.size() < n) {
                    int kind = rnd.nextInt(3);
                    out.add(
                            kind == 0
                                    ? rnd.nextLong()
                                    : kind == 1 ? rnd.nextInt() : rnd.nextInt(1000) - 500);
                }
            }
            case DATE -> {
                add(out, rnd, n / 2, 0, 65535, 0, 1, 2, 3, 4, 5, 6, 7, 19723, 65529, 65535);
                addDays(out, zone, n, 0, 65535, rnd);
            }
            case DATE32 -> {
                add(
                        out, rnd, n / 2, -25567, 120529, -25567, -25566, -1, 0, 1, 65535, 65536,
                        120529, 120528, -719, 47482);
                addDays(out, zone, n, -25567, 120529, rnd);
            }
            case DATETIME -> {
                add(
                        out,
                        rnd,
                        n / 3,
                        0,
                        0xFFFFFFFFL,
                        0,
                        1,
                        3599,
                        3600,
                        86399,
                        86400,
                        4294967295L,
                        4294967294L,
                        4294944000L,
                        1705300000L);
                addTransitions(out, zone, 0, 0xFFFFFFFFL, 1, n, rnd);
            }
            case DATETIME64 -> {
                long scale = ((DateTime64Type) t).ticksPerSecond();
                out.add(0L);
                out.add(-1L);
                out.add(1L);
                out.add(-scale / 2);
                out.add(-scale - 1);
                out.add(-86400 * scale - scale / 2);
                out.add(DT64_MIN * scale);
                out.add(DT64_MAX * scale + scale - 1);
                out.add(4294967295L * scale);
                out.add(4294967296L * scale);
                out.add(5662310399L * scale);
                out.add(5662310400L * scale);
                while (out.size() < n / 3) {
                    long s = DT64_MIN + (long) (rnd.nextDouble() * (DT64_MAX - DT64_MIN));
                    out.add(
                            s * scale
                                    + (scale > 1
                                            ? rnd.nextInt((int) Math.min(scale, 1 << 30))
                                            : 0));
                }
                addTransitions(out, zone, DT64_MIN, DT64_MAX, scale, n, rnd);
            }
            default -> throw new IllegalArgumentException(t.name());
        }
        long[] r = new long[Math.min(n, out.size())];
        int i = 0;
        for (long v : out) {
            if (i == r.length) {
                break;
            }
            r[i++] = v;
        }
        return r;
    }

    static ZoneId zoneOf(DataType t) {
        String z = DateFunctions.typeZone(t);
        return z == null ? ZoneOffset.UTC : ZoneId.of(z);
    }

    private static void add(Set<Long> out, Random rnd, int n, long min, long max, long... fixed) {
        for (long f : fixed) {
            out.add(f);
        }
        while (out.size() < n) {
            out.add(min + (long) (rnd.nextDouble() * ((double) max - min + 1)));
        }
    }

    private static void addDays(Set<Long> out, ZoneId zone, int n, long min, long max, Random r) {
        // days around the start of months, quarters, years, and weekdays of both ends
        while (out.size() < n) {
            long d = min + (long) (r.nextDouble() * (max - min + 1));
            out.add(Math.max(min, Math.min(max, d - d % 31 + r.nextInt(3) - 1)));
        }
    }

    /** Seconds (times scale, plus some ticks) around the zone's UTC offset changes. */
    private static void addTransitions(
            Set<Long> out, ZoneId zone, long min, long max, long scale, int n, Random rnd) {
        ZoneRules rules = zone.getRules();
        List<Long> trans = new ArrayList<>();
        ZoneOffsetTransition t = rules.nextTransition(Instant.ofEpochSecond(min));
        while (t != null && t.toEpochSecond() < max && trans.size() < 2000) {
            trans.add(t.toEpochSecond());
            t = rules.nextTransition(t.getInstant());
        }
        long[] deltas = {
            -86400, -3601, -3600, -1801, -1, 0, 1, 1799, 1800, 3599, 3600, 7200, 86399
        };
        while (out.size() < n) {
            long s;
            if (!trans.isEmpty() && rnd.nextInt(3) > 0) {
                s = trans.get(rnd.nextInt(trans.size())) + deltas[rnd.nextInt(deltas.length)];
            } else {
                s = min + (long) (rnd.nextDouble() * (max - min));
            }
            if (s < min || s > max) {
                continue;
            }
            long ticks =
                    s * scale
                            + (scale > 1 && rnd.nextBoolean()
                                    ? rnd.nextInt((int) Math.min(scale, 1 << 30))
                                    : 0);
            out.add(ticks);
        }
    }

    static boolean isUnsigned64(DataType t) {
        return t.kind() == TypeKind.UINT64;
    }
}
