package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Parses a table's {@code SETTINGS k = v, ...} clause into {@link MergeTreeSettings}, each value
 * checked by {@link MergeTreeSettings#check} as ClickHouse checks MergeTree settings.
 */
final class SettingsClauseParser {

    private final DdlTokens in;

    SettingsClauseParser(DdlTokens in) {
        this.in = in;
    }

    MergeTreeSettings settings() {
        Map<String, String> values = new LinkedHashMap<>();
        do {
            Token name = in.peek();
            if (name.type() != Type.BARE_WORD) {
                throw in.unexpected(name, "a setting name");
            }
            in.next();
            in.expect(Type.EQUALS, "'=' after setting " + name.text());
            Token v = in.next();
            String literal;
            if (v.type() == Type.MINUS && in.peek().type() == Type.NUMBER) {
                literal = "-" + in.next().text();
            } else if (v.type() == Type.NUMBER) {
                literal = v.text();
            } else if (v.type() == Type.STRING) {
                literal = SqlLexer.quoteString(v.text());
            } else if (v.isWord("true") || v.isWord("false")) {
                literal = v.text().toLowerCase(Locale.ROOT);
            } else {
                throw in.unexpected(v, "a literal value for setting " + name.text());
            }
            String problem = MergeTreeSettings.check(name.text(), literal);
            if (problem != null) {
                throw in.error(problem, name.start());
            }
            values.put(name.text(), literal);
        } while (in.peek().type() == Type.COMMA && in.next() != null);
        return new MergeTreeSettings(values);
    }
}
