package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code ENGINE} clause: reads its arguments and resolves the engine as ClickHouse's {@code
 * registerStorageMergeTree} does, including the {@code Replicated…} and {@code Shared…} variants
 * (ZooKeeper path and replica name); the plain engines' parameters are checked by {@link
 * EngineParameterChecks}.
 */
final class EngineClauseParser {

    private final DdlTokens in;
    private final EngineParameterChecks engineChecks;

    EngineClauseParser(DdlTokens in) {
        this.in = in;
        this.engineChecks = new EngineParameterChecks(in);
    }

    /**
     * The engines written here, by plain name, with their parameters as ClickHouse's
     * registerStorageMergeTree describes them in its argument-count message (optional ones in
     * brackets).
     */
    private static final Map<String, List<String>> PLAIN_ENGINE_PARAMETERS =
            Map.of(
                    "MergeTree", List.of(),
                    "ReplacingMergeTree", List.of("[is_deleted column]", "[version]"),
                    "SummingMergeTree", List.of("[list of columns to sum]"),
                    "CollapsingMergeTree", List.of("sign column"),
                    "VersionedCollapsingMergeTree", List.of("sign column", "version"),
                    "AggregatingMergeTree", List.of());

    static final Set<String> OTHER_ENGINES =
            Set.of(
                    "GraphiteMergeTree",
                    "CoalescingMergeTree",
                    "Memory",
                    "Log",
                    "TinyLog",
                    "StripeLog",
                    "Null",
                    "Distributed",
                    "Buffer",
                    "Kafka",
                    "S3",
                    "S3Queue",
                    "URL",
                    "File",
                    "Join",
                    "Set",
                    "Dictionary",
                    "Merge",
                    "View",
                    "MaterializedView",
                    "MySQL",
                    "PostgreSQL",
                    "MongoDB",
                    "HDFS",
                    "Hive",
                    "Iceberg",
                    "DeltaLake",
                    "Hudi",
                    "EmbeddedRocksDB",
                    "KeeperMap",
                    "GenerateRandom",
                    "ODBC",
                    "JDBC",
                    "Redis",
                    "SQLite",
                    "RabbitMQ",
                    "NATS",
                    "AzureBlobStorage",
                    "FileLog",
                    "Executable",
                    "ExecutablePool",
                    "TimeSeries",
                    "Loop",
                    "Alias");

    /** The engine's arguments after its name, each as its tokens, from {@code (} to {@code )}. */
    List<List<Token>> engineArguments() {
        in.expect(Type.OPEN_PAREN, "'('");
        List<List<Token>> args = new ArrayList<>();
        if (in.peek().type() == Type.CLOSE_PAREN) {
            in.next();
            return args;
        }
        while (true) {
            List<Token> arg = new ArrayList<>();
            int depth = 0;
            while (true) {
                Token k = in.peek();
                if (k.type() == Type.EOF) {
                    throw in.unexpected(k, "')' after the engine arguments");
                }
                if (depth == 0 && (k.type() == Type.COMMA || k.type() == Type.CLOSE_PAREN)) {
                    break;
                }
                if (k.type() == Type.OPEN_PAREN) {
                    depth++;
                } else if (k.type() == Type.CLOSE_PAREN) {
                    depth--;
                }
                arg.add(in.next());
            }
            if (arg.isEmpty()) {
                throw in.unexpected(in.peek(), "an engine argument");
            }
            args.add(arg);
            if (in.next().type() == Type.CLOSE_PAREN) {
                return args;
            }
        }
    }

    /**
     * The engine {@code nameToken} names with {@code args}, checked against the table's columns,
     * sorting key and settings: a Replicated or Shared variant or a plain engine.
     */
    EngineDefinition engine(
            Token nameToken,
            boolean parens,
            List<List<Token>> args,
            List<ColumnDefinition> columns,
            KeyExpression sortingKey,
            MergeTreeSettings settings) {
        String name = nameToken.text();
        for (EngineReplication.Family family : EngineReplication.Family.values()) {
            String prefix = family.prefix();
            if (name.startsWith(prefix)
                    && name.endsWith("MergeTree")
                    && name.length() > prefix.length()) {
                return replicatedEngine(
                        nameToken,
                        family,
                        name.substring(prefix.length()),
                        args,
                        columns,
                        sortingKey,
                        settings);
            }
        }
        return engineChecks.plainEngine(
                nameToken, name, args, columns, sortingKey, settings.allowNullableKey());
    }

    /**
     * A {@code Replicated…MergeTree} / {@code Shared…MergeTree} engine as ClickHouse 26.7's
     * registerStorageMergeTree reads it: the argument count of the plain engine plus two optional
     * leading arguments; when the first two are literals they are the ZooKeeper path and the
     * replica name (string literals, kept verbatim), when there are none or the first is not a
     * literal the server's defaults apply; the remaining arguments are the plain engine's.
     */
    private EngineDefinition replicatedEngine(
            Token nameToken,
            EngineReplication.Family family,
            String plainName,
            List<List<Token>> args,
            List<ColumnDefinition> columns,
            KeyExpression sortingKey,
            MergeTreeSettings settings) {
        String name = nameToken.text();
        int at = nameToken.start();
        List<String> params = PLAIN_ENGINE_PARAMETERS.get(plainName);
        if (params == null) {
            if (OTHER_ENGINES.contains(plainName)) {
                throw in.unsupported("ENGINE " + name, unsupportedEngine(name), at);
            }
            throw in.error("Unknown table engine " + name, at);
        }
        List<String> needed = new ArrayList<>(List.of("[path in ZooKeeper]", "[replica name]"));
        needed.addAll(params);
        int min = (int) params.stream().filter(p -> !p.startsWith("[")).count();
        int max = needed.size();
        if (args.size() < min || args.size() > max) {
            throw in.error(
                    "With extended storage definition syntax storage "
                            + name
                            + " requires "
                            + (min == max ? max + "" : min + " to " + max)
                            + " parameters: "
                            + String.join(", ", needed),
                    at);
        }
        for (int i = 0; i < Math.min(2, args.size()); i++) {
            refuseEvaluatedArgument(args.get(i));
        }
        EngineReplication replication;
        List<List<Token>> rest;
        if (args.size() >= 2 && isLiteral(args.get(0)) && isLiteral(args.get(1))) {
            Token path = args.get(0).get(0);
            Token replica = args.get(1).get(0);
            if (path.type() != Type.STRING) {
                throw in.error("Path in ZooKeeper must be a string literal", path.start());
            }
            if (replica.type() != Type.STRING) {
                throw in.error("Replica name must be a string literal", replica.start());
            }
            if (replica.text().isEmpty()) {
                throw in.error("No replica name in config", replica.start());
            }
            if (replica.text().contains("\t") || replica.text().contains("\n")) {
                throw in.error("Replica name must not contain '\\t' or '\\n'", replica.start());
            }
            replication = new EngineReplication(family, path.text(), replica.text());
            rest = args.subList(2, args.size());
        } else if (args.isEmpty() || !isLiteral(args.get(0))) {
            replication = EngineReplication.serverDefaults(family);
            rest = args;
        } else {
            throw in.error(
                    "Expected two string literal arguments: zookeeper_path and replica_name",
                    args.get(0).get(0).start());
        }
        if (rest.size() < min) {
            // ClickHouse takes the sign and version columns from the end of the arguments, so
            // the replica name (a literal) stands where a column name is due
            int missing = min - rest.size();
            boolean versionMissing =
                    plainName.equals("VersionedCollapsingMergeTree") && missing == 2;
            throw in.error(
                    (versionMissing ? "Version" : "Sign")
                            + " column name must be an unquoted string",
                    args.get(1).get(0).start());
        }
        if (plainName.equals("MergeTree") && !rest.isEmpty()) {
            throw in.error("Wrong number of engine arguments.", rest.get(0).get(0).start());
        }
        if (family == EngineReplication.Family.REPLICATED
                && settings.getBoolean("table_readonly", false)) {
            throw in.error(
                    "The `table_readonly` setting is not supported for ReplicatedMergeTree", at);
        }
        return engineChecks
                .plainEngine(
                        nameToken,
                        plainName,
                        rest,
                        columns,
                        sortingKey,
                        settings.allowNullableKey())
                .replicated(replication);
    }

    /** A literal engine argument (ClickHouse takes these as ZooKeeper path and replica name). */
    private static boolean isLiteral(List<Token> arg) {
        if (arg.size() == 2 && arg.get(0).type() == Type.MINUS) {
            return arg.get(1).type() == Type.NUMBER;
        }
        if (arg.size() != 1) {
            return false;
        }
        Token t = arg.get(0);
        return t.type() == Type.STRING
                || t.type() == Type.NUMBER
                || (t.type() == Type.BARE_WORD
                        && (t.isWord("NULL") || t.isWord("true") || t.isWord("false")));
    }

    /**
     * ClickHouse evaluates a function call among the engine arguments (other than {@code tuple} and
     * {@code array}) to a constant; this engine does not evaluate them.
     */
    private void refuseEvaluatedArgument(List<Token> arg) {
        if (arg.size() >= 2
                && arg.get(0).type() == Type.BARE_WORD
                && arg.get(1).type() == Type.OPEN_PAREN
                && !arg.get(0).isWord("tuple")
                && !arg.get(0).isWord("array")) {
            String source = in.text.substring(arg.get(0).start(), arg.get(arg.size() - 1).end());
            throw in.unsupported(
                    "engine argument expression",
                    "Engine argument expressions are not supported; write the ZooKeeper path and"
                            + " the replica name as string literals, found '"
                            + source
                            + "'",
                    arg.get(0).start());
        }
    }

    static String unsupportedEngine(String name) {
        return "ENGINE "
                + name
                + " is not supported (only MergeTree, ReplacingMergeTree, SummingMergeTree,"
                + " CollapsingMergeTree, VersionedCollapsingMergeTree and AggregatingMergeTree, and"
                + " their Replicated and Shared variants)";
    }
}
