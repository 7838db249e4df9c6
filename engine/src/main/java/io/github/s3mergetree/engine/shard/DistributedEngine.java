package io.github.s3mergetree.engine.shard;

import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine clause of a ClickHouse {@code Distributed} table, {@code Distributed(cluster,
 * database, table[, sharding_key[, policy_name]])}, as a user's DDL or a server's {@code SHOW
 * CREATE TABLE} prints it: the cluster whose shards hold the local tables, the local table, and the
 * sharding key that decides which shard a row goes to.
 *
 * <p>Why: a job writing into a sharded cluster must route rows as ClickHouse's own INSERT into the
 * Distributed table would; the Distributed table's definition is where the routing is declared.
 * Only the engine clause is read here (its columns are the local table's, whose DDL the job has).
 *
 * <p>The first three arguments are identifiers or string literals; a constant expression (such as
 * {@code currentDatabase()}) is refused with a clear message, since it can only be evaluated by the
 * server it was declared on.
 *
 * @param cluster the {@code remote_servers} cluster name
 * @param database the local tables' database ({@code ""}: each shard's default database)
 * @param table the local tables' name
 * @param shardingKey the sharding key as written (SQL), if any
 * @param policyName the storage policy, if given (not used for routing)
 */
public record DistributedEngine(
        String cluster,
        String database,
        String table,
        Optional<String> shardingKey,
        Optional<String> policyName) {

    /** Bounds the text this parser accepts (a definition is never larger). */
    public static final int MAX_LENGTH = 1 << 20;

    public DistributedEngine {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(shardingKey, "shardingKey");
        Objects.requireNonNull(policyName, "policyName");
    }

    /**
     * Reads the Distributed engine clause from {@code sql}: a whole {@code CREATE TABLE … ENGINE =
     * Distributed(…)} statement or the clause {@code Distributed(…)} alone.
     *
     * @throws IllegalArgumentException naming what is wrong (no Distributed engine, a wrong
     *     argument count, an argument that is not a name)
     */
    public static DistributedEngine parse(String sql) {
        Objects.requireNonNull(sql, "sql");
        if (sql.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "Distributed table definition of "
                            + sql.length()
                            + " characters is longer than "
                            + MAX_LENGTH);
        }
        List<Token> tokens = SqlLexer.tokenize(sql);
        int i = findEngine(tokens);
        if (i < 0) {
            throw new IllegalArgumentException(
                    "no ENGINE = Distributed(...) in the Distributed table definition: "
                            + excerpt(sql));
        }
        i += 2; // Distributed (
        String[] names = new String[3];
        String[] what = {"cluster name", "database name", "table name"};
        for (int a = 0; a < 3; a++) {
            Token t = tokens.get(i);
            if (t.type() == Type.CLOSE_PAREN) {
                throw argumentCount(a, sql);
            }
            boolean name = t.type() == Type.STRING || t.isIdentifier();
            Token after = tokens.get(i + 1);
            if (!name || (after.type() != Type.COMMA && after.type() != Type.CLOSE_PAREN)) {
                throw new IllegalArgumentException(
                        "the "
                                + what[a]
                                + " of the Distributed engine must be a name or a string literal"
                                + " (a constant expression is evaluated by the server that"
                                + " declared it; give its value), at "
                                + t.describe()
                                + " in "
                                + excerpt(sql));
            }
            names[a] = t.text();
            i++;
            if (a < 2) {
                if (tokens.get(i).type() != Type.COMMA) {
                    throw argumentCount(a + 1, sql);
                }
                i++;
            }
        }
        Optional<String> key = Optional.empty();
        Optional<String> policy = Optional.empty();
        if (tokens.get(i).type() == Type.COMMA) {
            i++;
            ExprParser.Parsed parsed = ExprParser.parsePrefix(sql, tokens, i);
            key = Optional.of(sql.substring(parsed.start(), parsed.end()));
            i = parsed.nextTokenIndex();
            if (tokens.get(i).type() == Type.COMMA) {
                i++;
                Token p = tokens.get(i);
                if (p.type() != Type.STRING && !p.isIdentifier()) {
                    throw new IllegalArgumentException(
                            "the storage policy of the Distributed engine must be a string, at "
                                    + p.describe());
                }
                policy = Optional.of(p.text());
                i++;
            }
        }
        if (tokens.get(i).type() != Type.CLOSE_PAREN) {
            throw new IllegalArgumentException(
                    "Storage Distributed requires from 3 to 5 parameters - name of configuration"
                            + " section with list of remote servers, name of remote database, name"
                            + " of remote table, sharding key expression (optional), policy to"
                            + " store data in (optional); unexpected "
                            + tokens.get(i).describe()
                            + " in "
                            + excerpt(sql));
        }
        return new DistributedEngine(names[0], names[1], names[2], key, policy);
    }

    /**
     * The selector routing rows over {@code slots}, the key bound to the local table's {@code
     * columns}.
     *
     * @throws IllegalArgumentException with ClickHouse's message when the cluster has more than one
     *     shard and the table no sharding key, or the key is not an integer
     */
    public ShardSelector selector(Map<String, DataType> columns, ShardSlots slots) {
        if (shardingKey.isEmpty()) {
            if (slots.shards() > 1) {
                throw new IllegalArgumentException(
                        "Method write is not supported by storage Distributed with more than one"
                                + " shard and no sharding key provided (cluster "
                                + cluster
                                + ", "
                                + slots.shards()
                                + " shards)");
            }
            Expr zero = ExprParser.parse("0", columns);
            return ShardSelector.of(zero, slots);
        }
        return ShardSelector.of(shardingKey.get(), columns, slots);
    }

    private static int findEngine(List<Token> tokens) {
        for (int i = 0; i + 3 < tokens.size(); i++) {
            if (tokens.get(i).isWord("Distributed")
                    && tokens.get(i + 1).type() == Type.OPEN_PAREN
                    && (i == 0
                            || tokens.get(i - 1).type() == Type.EQUALS
                                    && i >= 2
                                    && tokens.get(i - 2).isWord("ENGINE"))) {
                return i;
            }
        }
        return -1;
    }

    private static IllegalArgumentException argumentCount(int got, String sql) {
        return new IllegalArgumentException(
                "Storage Distributed requires from 3 to 5 parameters - name of configuration"
                        + " section with list of remote servers, name of remote database, name of"
                        + " remote table, sharding key expression (optional), policy to store"
                        + " data in (optional); got "
                        + got
                        + " in "
                        + excerpt(sql));
    }

    private static String excerpt(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
    }
}
