package io.github.s3mergetree.delivery.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.part.PartName;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The names a delivery puts on a server: unique to (written table, target, delivery) through the
 * random tag, the same for every attempt of one delivery (derived from its recorded id), and of the
 * forms ClickHouse takes (a RESTORE id, a UUID, a part name in detached/).
 */
class DeliveryIdsTest {
    private static final String KEY = "default-live-0123456789";

    private static PartName part(String name) {
        return PartName.tryParse(name).orElseThrow();
    }

    @Test
    void anIdNamesTargetTagAndSequenceAndParsesBack() {
        String id = DeliveryIds.deliveryId(KEY, "00ff00ff00ff00ff", 7);
        assertThat(id).isEqualTo("s3mt-" + KEY + "-00ff00ff00ff00ff-7");
        assertThat(DeliveryIds.parse(id))
                .contains(new DeliveryIds.Parsed(KEY, "00ff00ff00ff00ff", 7));
        assertThat(DeliveryIds.parse("s3mt-" + KEY + "-7")).as("an id without a tag").isEmpty();
        assertThat(DeliveryIds.parseUntagged("s3mt-" + KEY + "-7"))
                .contains(new DeliveryIds.Parsed(KEY, "", 7));
        assertThat(DeliveryIds.parseUntagged(id)).isEmpty();
        assertThat(DeliveryIds.parse("backup-1")).isEmpty();
        assertThatThrownBy(() -> DeliveryIds.deliveryId("a b", "00ff00ff00ff00ff", 1))
                .hasMessageContaining("'a b'");
        assertThatThrownBy(() -> DeliveryIds.deliveryId(KEY, "xyz", 1))
                .hasMessageContaining("'xyz'");
        assertThatThrownBy(() -> DeliveryIds.deliveryId(KEY, "00ff00ff00ff00ff", 0))
                .hasMessageContaining("0");
    }

    @Test
    void twoWrittenTablesDeliveringIntoOneTargetNeverShareAName() {
        // each table's ledger counts from 1 and both have part 0_1_1_0: only the tag differs
        Set<String> ids = new HashSet<>();
        Set<String> uuids = new HashSet<>();
        Set<String> detached = new HashSet<>();
        Set<String> backupTables = new HashSet<>();
        for (int table = 0; table < 200; table++) {
            String id = DeliveryIds.deliveryId(KEY, DeliveryIds.newTag(), 1);
            assertThat(ids.add(id)).as(id).isTrue();
            assertThat(uuids.add(DeliveryIds.partUuid(id, part("0_1_1_0")).toString())).isTrue();
            assertThat(detached.add(DeliveryIds.detachedName(id, part("0_1_1_0")).toString()))
                    .isTrue();
            assertThat(backupTables.add(DeliveryIds.backupTable(id, 1))).isTrue();
        }
    }

    @Test
    void namesDerivedFromAnIdAreTheSameForEveryAttempt() {
        String id = DeliveryIds.deliveryId(KEY, "0123456789abcdef", 3);
        assertThat(DeliveryIds.partUuid(id, part("2008_1_4_1")))
                .isEqualTo(DeliveryIds.partUuid(id, part("2008_1_4_1")))
                .isNotEqualTo(DeliveryIds.partUuid(id, part("2008_5_5_0")));
        assertThat(DeliveryIds.detachedName(id, part("2008_1_4_1")))
                .isEqualTo(DeliveryIds.detachedName(id, part("2008_1_4_1")));
        assertThat(DeliveryIds.backupTable(id, 3)).matches("d_3_[0-9a-f]{16}");
    }

    @Test
    void aDetachedNameKeepsPartitionLevelMutationAndRangeWidth() {
        String id = DeliveryIds.deliveryId(KEY, "0123456789abcdef", 3);
        PartName original = part("202401-x_5_9_2_11");
        PartName d = DeliveryIds.detachedName(id, original);
        assertThat(d.partitionId()).isEqualTo("202401-x");
        assertThat(d.level()).isEqualTo(2);
        assertThat(d.mutation()).isEqualTo(11);
        assertThat(d.maxBlock() - d.minBlock()).isEqualTo(4);
        assertThat(d.minBlock()).isGreaterThanOrEqualTo(1L << 40);
        assertThat(PartName.tryParse(d.toString())).contains(d);
        // a delivery recorded before ids had a tag copied its parts under their own names
        assertThat(DeliveryIds.detachedName("s3mt-" + KEY + "-3", original)).isEqualTo(original);
    }
}
