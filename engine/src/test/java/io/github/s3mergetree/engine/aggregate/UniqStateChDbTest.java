package io.github.s3mergetree.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code uniq} states merged by this engine against ClickHouse's {@code uniqMergeState} of the same
 * states in the same order: byte for byte (the table's order included), also when the merged set
 * outgrows 65536 hashes and ClickHouse thins it out (raising skip_degree), and through a state
 * ClickHouse already thinned.
 */
class UniqStateChDbTest {
    @ChDbSession static ChDb ch;
    @TempDir static Path tmp;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** chDB's states, one per query, in order, and chDB's merge of them in that order. */
    private record Case(String type, List<String> stateQueries) {}

    @Test
    void mergesEqualClickHousesUniqMergeStateAcrossTheThinning() throws Exception {
        List<Case> cases =
                List.of(
                        // 3 x 30000 distinct: the merge crosses 65536 and thins to skip_degree 1
                        new Case(
                                "AggregateFunction(uniq, UInt64)",
                                List.of(
                                        "SELECT uniqState(number) FROM numbers(0, 30000)",
                                        "SELECT uniqState(number) FROM numbers(30000, 30000)",
                                        "SELECT uniqState(number) FROM numbers(60000, 30000)")),
                        // overlapping ranges, strings; the last state is already thinned
                        new Case(
                                "AggregateFunction(uniq, String)",
                                List.of(
                                        "SELECT uniqState(toString(number)) FROM numbers(0, 50000)",
                                        "SELECT uniqState(toString(number)) FROM numbers(25000,"
                                                + " 50000)",
                                        "SELECT uniqState(toString(number)) FROM numbers(60000,"
                                                + " 200000)")),
                        // small states: the table grows from 16 cells, zero hash included
                        new Case(
                                "AggregateFunction(uniq, Int32)",
                                List.of(
                                        "SELECT uniqState(toInt32(toInt64(number) - 5)) FROM numbers(9)",
                                        "SELECT uniqState(toInt32(number * 7)) FROM numbers(40)",
                                        "SELECT uniqState(toInt32(toInt64(number) - 3)) FROM numbers(1)")));
        int n = 0;
        for (Case c : cases) {
            AggregateFunctionType type = (AggregateFunctionType) DataTypeParser.parse(c.type());
            StateFunction<?> f = StateFunctions.of(type);
            String table = "m" + n++;
            ch.execute(
                    "CREATE TABLE " + table + " (i UInt8, s " + type.name() + ") ENGINE = Memory");
            for (int i = 0; i < c.stateQueries().size(); i++) {
                ch.execute(
                        "INSERT INTO "
                                + table
                                + " SELECT "
                                + i
                                + ", s FROM ("
                                + c.stateQueries().get(i)
                                + ") AS t(s)");
            }
            List<byte[]> states = new ArrayList<>();
            for (String hex : ch.query("SELECT hex(s) FROM " + table + " ORDER BY i").split("\n")) {
                byte[] state = HEX.parseHex(hex.trim());
                // reading finds the state's end exactly
                assertThat(f.readState(new ByteArraySource(state, "state"))).isEqualTo(state);
                states.add(state);
            }
            assertThat(states).hasSize(c.stateQueries().size());
            String merged =
                    ch.query(
                                    "SELECT hex(uniqMergeState(s)) FROM (SELECT s FROM "
                                            + table
                                            + " ORDER BY i) SETTINGS max_threads = 1")
                            .trim();
            byte[] ours = f.mergeStates(states, c.type());
            assertThat(HEX.formatHex(ours)).as(c.type()).isEqualTo(merged);
            Path file = tmp.resolve(table + ".bin");
            Files.write(file, ours);
            assertThat(
                            ch.queryLong(
                                    "SELECT finalizeAggregation(s) FROM file('"
                                            + file
                                            + "', RowBinary, 's "
                                            + type.name()
                                            + "')"))
                    .isEqualTo(ch.queryLong("SELECT uniqMerge(s) FROM " + table));
        }
    }

    @Test
    void aThinnedStateKeepsItsSkipDegreeAndOnlyDivisibleHashes() {
        AggregateFunctionType type =
                (AggregateFunctionType) DataTypeParser.parse("AggregateFunction(uniq, UInt64)");
        StateFunction<?> f = StateFunctions.of(type);
        ch.execute("CREATE TABLE thinned (i UInt8, s " + type.name() + ") ENGINE = Memory");
        ch.execute("INSERT INTO thinned SELECT 0, uniqState(toUInt64(7))");
        ch.execute("INSERT INTO thinned SELECT 1, uniqState(number) FROM numbers(300000)");
        String[] hexes = ch.query("SELECT hex(s) FROM thinned ORDER BY i").trim().split("\n");
        byte[] one = HEX.parseHex(hexes[0].trim());
        byte[] big = HEX.parseHex(hexes[1].trim());
        byte[] merged = f.mergeStates(List.of(one, big), "states");
        int skip = merged[0];
        assertThat(skip).isEqualTo(big[0]).isGreaterThan(0);
        // every hash after the VarUInt count is divisible by 2^skip_degree
        ByteArraySource in = new ByteArraySource(merged, "merged");
        in.readByte();
        long n = in.readVarUInt();
        byte[] cell = new byte[4];
        for (long i = 0; i < n; i++) {
            in.readFully(cell, 0, 4);
            assertThat(cell[0] & ((1 << skip) - 1)).isZero();
        }
        assertThat(in.eof()).isTrue();
        String expected =
                ch.query(
                                "SELECT hex(uniqMergeState(s)) FROM (SELECT s FROM thinned ORDER"
                                        + " BY i) SETTINGS max_threads = 1")
                        .trim();
        assertThat(HEX.formatHex(merged)).isEqualTo(expected);
    }

    @Test
    void aCorruptStateIsRefusedNamingTheBadValue() {
        StateFunction<?> f =
                StateFunctions.of(
                        (AggregateFunctionType)
                                DataTypeParser.parse("AggregateFunction(uniq, UInt64)"));
        byte[] skip = {20, 0};
        assertThatThrownBy(() -> f.mergeStates(List.of(skip), "c"))
                .hasMessageContaining("skip degree 20");
        byte[] size = {0, (byte) 0x81, (byte) 0x80, 0x04};
        assertThatThrownBy(() -> f.mergeStates(List.of(size), "c"))
                .hasMessageContaining("size 65537");
    }
}
