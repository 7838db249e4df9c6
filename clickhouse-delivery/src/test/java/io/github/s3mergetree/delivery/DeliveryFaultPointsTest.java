package io.github.s3mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The crash hook of whole-process tests: {@value DeliveryFaultPoints#HALT_AT_PROPERTY} installs it
 * only for a point of the protocol (a misspelt point would silently never halt, and the kill test
 * would pass without killing). The halt itself is proven by the kill tests of the CLI.
 */
class DeliveryFaultPointsTest {
    @AfterEach
    void clear() {
        System.clearProperty(DeliveryFaultPoints.HALT_AT_PROPERTY);
        DeliveryFaultPoints.install(null);
    }

    @Test
    void withoutThePropertyNothingIsInstalled() {
        assertThat(DeliveryFaultPoints.haltAtFromSystemProperty()).isEmpty();
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_SEND); // no halt
    }

    @Test
    void aPointOfTheProtocolIsAccepted() {
        System.setProperty(DeliveryFaultPoints.HALT_AT_PROPERTY, DeliveryFaultPoints.AFTER_APPLIED);
        assertThat(DeliveryFaultPoints.haltAtFromSystemProperty())
                .contains(DeliveryFaultPoints.AFTER_APPLIED);
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_INTENT); // another point: no halt
    }

    @Test
    void anUnknownPointIsRefusedNamingTheKnownOnes() {
        System.setProperty(DeliveryFaultPoints.HALT_AT_PROPERTY, "deliver.after-sent");
        assertThatThrownBy(DeliveryFaultPoints::haltAtFromSystemProperty)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got: deliver.after-sent")
                .hasMessageContaining(DeliveryFaultPoints.AFTER_SEND);
    }
}
