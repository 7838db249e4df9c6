package io.github.s3mergetree.source.s3.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A boolean setting's value is taken or refused as ClickHouse (chDB) takes or refuses it for the
 * same setting ({@code SETTINGS format_csv_allow_single_quotes = '<value>'}), with the same result.
 */
class BooleanSettingsDifferentialTest {
    @TempDir Path dir;

    @Test
    void booleanValuesAreTakenAndRefusedAsClickHouseTakesThem() {
        List<String> values =
                List.of(
                        "0", "1", "true", "false", "TRUE", "False", "tRuE", "yes", "no", "on",
                        "off", "2", "-1", " 1", "1 ", "", "01", "t", "f", "enable", "1.0", "truee");
        List<String> mismatches = new ArrayList<>();
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            for (String v : values) {
                String ours;
                try {
                    ours =
                            Boolean.toString(
                                    NamedSettings.parseBool("format_csv_allow_single_quotes", v));
                } catch (IllegalArgumentException e) {
                    ours = "refused";
                }
                String theirs;
                try {
                    theirs =
                            chdb.query(
                                            "SELECT getSetting('format_csv_allow_single_quotes')"
                                                    + " SETTINGS format_csv_allow_single_quotes = '"
                                                    + v
                                                    + "'")
                                    .trim();
                } catch (ChDbException e) {
                    assertThat(e.getMessage()).contains("Cannot parse bool from string");
                    theirs = "refused";
                }
                if (!ours.equals(theirs)) {
                    mismatches.add("'" + v + "': ClickHouse " + theirs + ", ours " + ours);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
