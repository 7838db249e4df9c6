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
 * {@code uniqCombined} / {@code uniqCombined64} states merged by this engine against ClickHouse's
 * {@code -MergeState} of the same states in the same order, byte for byte, through all three
 * containers: small set (up to 16 keys), hash set, HyperLogLog; 4-byte and 8-byte keys.
 */
class UniqCombinedStateChDbTest {
    @ChDbSession static ChDb ch;
    @TempDir static Path tmp;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** The column type, the argument expression over {@code number}, and row ranges per state. */
    private record Case(String type, String function, String argument, long[][] ranges) {}

    @Test
    void mergesEqualClickHousesMergeStateThroughEveryContainer() throws Exception {
        long[][] smallToMedium = {{0, 5}, {3, 10}, {100, 7}};
        long[][] mediumToLarge = {{0, 300}, {1000, 6000}, {5000, 4000}, {20, 3}};
        long[][] large = {{0, 20000}, {10, 5}, {50000, 300}, {100000, 30000}};
        List<Case> cases =
                List.of(
                        new Case("UInt64", "uniqCombined", "number", smallToMedium),
                        new Case("UInt64", "uniqCombined", "number", mediumToLarge),
                        new Case("UInt64", "uniqCombined", "number", large),
                        new Case("String", "uniqCombined", "toString(number)", smallToMedium),
                        new Case("String", "uniqCombined", "toString(number)", mediumToLarge),
                        new Case("String", "uniqCombined", "toString(number)", large),
                        new Case("Int32", "uniqCombined64", "toInt32(number) - 100", smallToMedium),
                        new Case("UInt64", "uniqCombined64", "number", mediumToLarge),
                        new Case("Float64", "uniqCombined64", "number / 7", large),
                        new Case(
                                "Nullable(Decimal(18, 3))",
                                "uniqCombined",
                                "if(number % 3 = 0, NULL, toDecimal64(number / 1000, 3))",
                                mediumToLarge));
        int n = 0;
        for (Case c : cases) {
            String typeName = "AggregateFunction(" + c.function() + ", " + c.type() + ")";
            AggregateFunctionType type = (AggregateFunctionType) DataTypeParser.parse(typeName);
            StateFunction<?> f = StateFunctions.of(type);
            String table = "m" + n++;
            ch.execute(
                    "CREATE TABLE " + table + " (i UInt8, s " + type.name() + ") ENGINE = Memory");
            for (int i = 0; i < c.ranges().length; i++) {
                ch.execute(
                        "INSERT INTO "
                                + table
                                + " SELECT "
                                + i
                                + ", "
                                + c.function()
                                + "State(CAST("
                                + c.argument()
                                + " AS "
                                + c.type()
                                + ")) FROM numbers("
                                + c.ranges()[i][0]
                                + ", "
                                + c.ranges()[i][1]
                                + ")");
            }
            Path states = tmp.resolve(table + ".bin");
            ch.execute(
                    "SELECT s FROM "
                            + table
                            + " ORDER BY i INTO OUTFILE '"
                            + states
                            + "' FORMAT RowBinary");
            byte[] all = Files.readAllBytes(states);
            ByteArraySource in = new ByteArraySource(all, table);
            List<byte[]> read = new ArrayList<>();
            while (!in.eof()) {
                read.add(f.readState(in));
            }
            assertThat(read).hasSize(c.ranges().length);
            Path merged = tmp.resolve(table + "-merged.bin");
            ch.execute(
                    "SELECT "
                            + c.function()
                            + "MergeState(s) FROM (SELECT s FROM "
                            + table
                            + " ORDER BY i) INTO OUTFILE '"
                            + merged
                            + "' FORMAT RowBinary SETTINGS max_threads = 1");
            byte[] ours = f.mergeStates(read, typeName);
            byte[] theirs = Files.readAllBytes(merged);
            assertThat(ours[0]).as("%s %s container", typeName, table).isEqualTo(theirs[0]);
            assertThat(HEX.formatHex(ours))
                    .as(
                            "%s %s, first difference at byte %d of %d/%d",
                            typeName,
                            table,
                            java.util.Arrays.mismatch(ours, theirs),
                            ours.length,
                            theirs.length)
                    .isEqualTo(HEX.formatHex(theirs));
            Path oursFile = tmp.resolve(table + "-ours.bin");
            Files.write(oursFile, ours);
            assertThat(
                            ch.queryLong(
                                    "SELECT finalizeAggregation(s) FROM file('"
                                            + oursFile
                                            + "', RowBinary, 's "
                                            + type.name()
                                            + "')"))
                    .isEqualTo(ch.queryLong("SELECT " + c.function() + "Merge(s) FROM " + table));
        }
    }

    @Test
    void aCorruptStateIsRefusedNamingTheBadValue() {
        StateFunction<?> f =
                StateFunctions.of(
                        (AggregateFunctionType)
                                DataTypeParser.parse("AggregateFunction(uniqCombined, UInt64)"));
        assertThatThrownBy(() -> f.mergeStates(List.of(new byte[] {4}), "c"))
                .hasMessageContaining("container type 4");
        assertThatThrownBy(() -> f.mergeStates(List.of(new byte[] {1, 17}), "c"))
                .hasMessageContaining("small set size 17");
        assertThatThrownBy(() -> f.mergeStates(List.of(new byte[] {2, (byte) 0x81, 0x40}), "c"))
                .hasMessageContaining("hash set size 8193");
    }
}
