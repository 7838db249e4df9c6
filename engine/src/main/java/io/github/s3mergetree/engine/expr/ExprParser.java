package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.expr.SqlLexer.Type;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses ClickHouse expressions (as used in {@code PARTITION BY}, {@code ORDER BY}, {@code PRIMARY
 * KEY} and {@code DEFAULT}) and types them against a table's columns.
 *
 * <p>Supported syntax: column names (bare, back-quoted or double-quoted), integer / float / string
 * literals, {@code NULL}, {@code true}/{@code false}, function calls, the operators {@code + - * /
 * %} and unary {@code -}, the comparisons {@code = == != <> < <= > >=}, {@code [NOT] IN
 * (constants)}, {@code [NOT] BETWEEN}, {@code IS [NOT] NULL}, {@code NOT}, {@code AND}, {@code OR},
 * all with ClickHouse's precedence (lowest first: OR, AND, NOT, IS NULL, BETWEEN, comparisons and
 * IN, + -, * / %, unary minus), parenthesised tuples {@code (a, b)}, and {@code CAST(x AS T)} /
 * {@code CAST(x, 'T')} / {@code x::T}, and subscripts {@code a[i]} / {@code m['k']} ({@code
 * arrayElement}). LIKE, lambdas, array literals and subqueries are rejected as unsupported. As
 * ClickHouse does, a minus sign in front of a number literal makes a negative literal ({@code -1}
 * is an Int8 constant, not {@code negate(1)}), and in partition keys {@code %} / {@code modulo}
 * means {@code moduloLegacy}.
 *
 * <p>Why a parser of our own: the engine must compute keys exactly as ClickHouse does, so it needs
 * the expression itself, typed by ClickHouse's rules, not just its text.
 */
public final class ExprParser {

    /** Words that end an expression or that the parser rejects as unsupported operators. */
    private static final Set<String> UNSUPPORTED_WORDS =
            Set.of("AND", "OR", "IS", "IN", "BETWEEN", "LIKE", "ILIKE", "NOT", "GLOBAL", "AS");

    private static final Set<String> KEYWORDS =
            Set.of(
                    "NULL",
                    "TRUE",
                    "FALSE",
                    "AND",
                    "OR",
                    "NOT",
                    "IS",
                    "IN",
                    "BETWEEN",
                    "LIKE",
                    "ILIKE",
                    "AS",
                    "CAST",
                    "CASE",
                    "WHEN",
                    "THEN",
                    "ELSE",
                    "END",
                    "INTERVAL",
                    "SELECT",
                    "FROM",
                    "WHERE",
                    "ORDER",
                    "BY",
                    "PARTITION",
                    "PRIMARY",
                    "KEY",
                    "SETTINGS",
                    "TTL",
                    "SAMPLE",
                    "COMMENT",
                    "CODEC",
                    "DEFAULT",
                    "MATERIALIZED",
                    "ALIAS",
                    "ENGINE",
                    "INF",
                    "NAN",
                    "ALL",
                    "DISTINCT",
                    "VALUES",
                    "TABLE",
                    "GLOBAL",
                    "EPHEMERAL",
                    "INDEX",
                    "PROJECTION",
                    "CONSTRAINT",
                    "WITH",
                    "ARRAY",
                    "JOIN",
                    "ON",
                    "USING");

    private ExprParser() {}

    /** Whether {@code word} should be back-quoted when printed as a column name. */
    static boolean isKeyword(String word) {
        return KEYWORDS.contains(word.toUpperCase(Locale.ROOT));
    }

    /**
     * Parses and types a whole expression.
     *
     * @param sql the expression text
     * @param columns the table's columns (name → declared type) that the expression may reference
     * @throws ExprException on a syntax error, an unknown column or function, an unsupported
     *     construct or wrong argument types; the position is an offset into {@code sql}
     */
    public static Expr parse(String sql, Map<String, DataType> columns) {
        return whole(sql).bind(columns);
    }

    /**
     * Parses and types a key: a tuple is flattened into its elements, {@code tuple()} is the empty
     * key, any other expression is a one-element key.
     *
     * @param partitionKey whether this is a partition key, where ClickHouse computes {@code %} as
     *     {@code moduloLegacy}
     */
    public static KeyExpression parseKey(
            String sql, Map<String, DataType> columns, boolean partitionKey) {
        return whole(sql).bindKey(columns, partitionKey);
    }

    /**
     * Parses and types a DEFAULT / MATERIALIZED / ALIAS expression and converts it to the column's
     * type {@code target} as ClickHouse does ({@code NULL} is allowed for Nullable columns).
     */
    public static Expr parseDefault(String sql, Map<String, DataType> columns, DataType target) {
        return whole(sql).bindDefault(columns, target);
    }

    private static Parsed whole(String sql) {
        List<Token> tokens = SqlLexer.tokenize(sql);
        Parsed p = parsePrefix(sql, tokens, 0);
        Token next = tokens.get(p.nextTokenIndex());
        if (next.type() != Type.EOF) {
            throw ExprException.syntax(
                    "Unexpected " + next.describe() + " after the expression", next.start());
        }
        return p;
    }

    /**
     * Parses the syntax of one expression starting at token {@code index} of {@code tokens} (from
     * {@link SqlLexer#tokenize} of {@code text}) and stops at the first token that cannot continue
     * it: a comma or closing parenthesis that is not its own, a keyword, a semicolon or the end of
     * input. Names and functions are resolved later, by the methods of {@link Parsed}, so a DDL
     * parser can parse a DEFAULT expression before it has seen all columns.
     *
     * @throws ExprException (syntax or unsupported) if no expression starts there
     */
    public static Parsed parsePrefix(String text, List<Token> tokens, int index) {
        return parsePrefix(text, tokens, index, DEFAULT_LIMITS);
    }

    /**
     * ClickHouse's parser limits for one expression: {@code max_parser_depth} and {@code
     * max_ast_depth}, and the depth of the enclosing statement's tree at which the expression sits
     * (2 for a table's key expression in {@code CREATE TABLE}, 4 for a column's DEFAULT, as in
     * ClickHouse).
     *
     * @param maxParserDepth the deepest recursion: 2 per function call, parenthesis, unary minus or
     *     CAST the parser is inside
     * @param maxAstDepth the deepest syntax tree, {@link Ast#depth} counted as ClickHouse does
     * @param astDepthBase the depth of the enclosing tree above the expression
     */
    public record Limits(int maxParserDepth, int maxAstDepth, int astDepthBase) {}

    /** ClickHouse's defaults ({@code max_parser_depth} = {@code max_ast_depth} = 1000), alone. */
    public static final Limits DEFAULT_LIMITS = new Limits(1000, 1000, 0);

    /** How much of {@code max_parser_depth} each nested call, parenthesis or unary minus costs. */
    private static final int PARSER_DEPTH_PER_LEVEL = 2;

    /**
     * As {@link #parsePrefix(String, List, int)} within {@code limits}: an expression nested deeper
     * than they allow is refused (a syntax {@link ExprException} naming the limit, as ClickHouse's
     * "Maximum parse depth (1000) exceeded" and "AST is too deep. Maximum: 1000") before the parser
     * recurses further, so hostile input cannot overflow the stack.
     */
    public static Parsed parsePrefix(String text, List<Token> tokens, int index, Limits limits) {
        Parser p = new Parser(text, tokens, index, limits);
        Ast ast = p.expression();
        p.checkEnd();
        Token first = tokens.get(index);
        Token last = tokens.get(p.pos - 1);
        return new Parsed(ast, first.start(), last.end(), p.pos);
    }

    /** A parsed, not yet typed expression. */
    public static final class Parsed {
        private final Ast ast;
        private final int start;
        private final int end;
        private final int next;

        private Parsed(Ast ast, int start, int end, int next) {
            this.ast = ast;
            this.start = start;
            this.end = end;
            this.next = next;
        }

        /** Offset of the expression's first character in the parsed text. */
        public int start() {
            return start;
        }

        /** Offset just after the expression's last character. */
        public int end() {
            return end;
        }

        /** Index of the first token after the expression. */
        public int nextTokenIndex() {
            return next;
        }

        /** Types the expression against {@code columns}. */
        public Expr bind(Map<String, DataType> columns) {
            return new Binder(columns, false).bind(ast);
        }

        /** Types the expression as a key (see {@link ExprParser#parseKey}). */
        public KeyExpression bindKey(Map<String, DataType> columns, boolean partitionKey) {
            Binder b = new Binder(columns, partitionKey);
            Ast a = ast;
            boolean isTuple =
                    a.kind == Ast.Kind.TUPLE
                            || (a.kind == Ast.Kind.CALL
                                    && a.form == FunctionCall.Form.CALL
                                    && a.name.equals("tuple"));
            List<Expr> elements = new ArrayList<>();
            if (isTuple) {
                for (Ast e : a.args) {
                    elements.add(b.bind(e));
                }
            } else {
                elements.add(b.bind(a));
            }
            return new KeyExpression(elements);
        }

        /** Types a DEFAULT expression and converts it to {@code target}. */
        public Expr bindDefault(Map<String, DataType> columns, DataType target) {
            if (ast.kind == Ast.Kind.LITERAL && ast.literal.kind() == Literal.Kind.NULL) {
                DataType inner = Vectors.stripLowCardinality(target);
                if (!(inner instanceof io.github.s3mergetree.engine.types.NullableType)) {
                    throw ExprException.invalid(
                            "Cannot convert NULL to the non-Nullable type " + target.name(),
                            ast.position);
                }
                return Literal.ofNull(target);
            }
            Expr empty = ArrayFunctions.emptyDefault(ast, target);
            if (empty != null) {
                return empty;
            }
            Expr e = new Binder(columns, false).bind(ast);
            return ConversionFunctions.convert(e, target, ast.position);
        }
    }

    // ---------------------------------------------------------------------------------------
    // syntax

    private static final class Parser {
        private final String text;
        private final List<Token> t;
        private final Limits limits;
        private int pos;

        /** The parser depth spent by the calls, parentheses and unary minuses now open. */
        private int parserDepth;

        Parser(String text, List<Token> tokens, int pos, Limits limits) {
            this.text = text;
            this.t = tokens;
            this.pos = pos;
            this.limits = limits;
        }

        /** Opens one nesting level at token {@code k}, refusing it past max_parser_depth. */
        void enter(Token k) {
            parserDepth += PARSER_DEPTH_PER_LEVEL;
            if (parserDepth > limits.maxParserDepth()) {
                throw ExprException.syntax(
                        "Maximum parse depth ("
                                + limits.maxParserDepth()
                                + ") exceeded (max_parser_depth): the expression is nested more"
                                + " than "
                                + (limits.maxParserDepth() / PARSER_DEPTH_PER_LEVEL)
                                + " levels deep",
                        k.start());
            }
        }

        void leave() {
            parserDepth -= PARSER_DEPTH_PER_LEVEL;
        }

        /**
         * {@code a}, refused if its tree, under the enclosing statement's, is past max_ast_depth.
         */
        Ast checked(Ast a) {
            if ((long) limits.astDepthBase() + a.depth > limits.maxAstDepth()) {
                throw ExprException.syntax(
                        "AST is too deep. Maximum: "
                                + limits.maxAstDepth()
                                + " (max_ast_depth): the expression's tree is "
                                + a.depth
                                + " levels deep",
                        a.position);
            }
            return a;
        }

        Token peek() {
            return t.get(pos);
        }

        /** The token {@code ahead} places after the next one (or the end of input). */
        Token peekAt(int ahead) {
            return t.get(Math.min(pos + ahead, t.size() - 1));
        }

        Token next() {
            Token k = t.get(pos);
            if (k.type() != Type.EOF) {
                pos++;
            }
            return k;
        }

        ExprException unexpected(Token k, String expected) {
            return ExprException.syntax(
                    "Unexpected " + k.describe() + ", expected " + expected, k.start());
        }

        Token expect(Type type, String what) {
            Token k = peek();
            if (k.type() != type) {
                throw unexpected(k, what);
            }
            return next();
        }

        /** Rejects operators this engine does not support right after an expression. */
        void checkEnd() {
            Token k = peek();
            switch (k.type()) {
                case OPERATOR, EQUALS, OPEN_BRACKET ->
                        throw ExprException.unsupported(
                                "Operator '" + k.text() + "' is not supported in expressions",
                                k.start());
                case DOT ->
                        throw ExprException.unsupported(
                                "Qualified names and tuple element access ('.') are not"
                                        + " supported",
                                k.start());
                case BARE_WORD -> {
                    String u = k.text().toUpperCase(Locale.ROOT);
                    if (UNSUPPORTED_WORDS.contains(u)) {
                        throw ExprException.unsupported(
                                "Operator " + u + " is not supported in expressions", k.start());
                    }
                }
                default -> {}
            }
        }

        /** A whole expression: {@code OR} has the lowest precedence. */
        Ast expression() {
            return logical("OR", "or");
        }

        /**
         * {@code a OR b OR c} (or {@code AND}): one call of all operands, as ClickHouse merges a
         * chain of the same logical operator; a parenthesised chain stays a call of its own.
         */
        Ast logical(String word, String function) {
            Ast first = word.equals("OR") ? logical("AND", "and") : not();
            if (!peek().isWord(word)) {
                return first;
            }
            List<Ast> items = new ArrayList<>();
            items.add(first);
            int at = peek().start();
            while (peek().isWord(word)) {
                next();
                items.add(word.equals("OR") ? logical("AND", "and") : not());
            }
            return checkedOperator(function, word, FunctionCall.Form.INFIX, items, at);
        }

        /** {@code NOT a}: below the comparisons ({@code NOT a = b} is {@code NOT (a = b)}). */
        Ast not() {
            Token k = peek();
            if (k.isWord("NOT")) {
                next();
                enter(k);
                Ast a = not();
                leave();
                return checkedOperator(
                        "not", "NOT", FunctionCall.Form.PREFIX, List.of(a), k.start());
            }
            return isNull();
        }

        /** {@code a IS NULL}, {@code a IS NOT NULL}. */
        Ast isNull() {
            Ast a = between();
            while (peek().isWord("IS")) {
                Token k = next();
                boolean negated = peek().isWord("NOT");
                if (negated) {
                    next();
                }
                Token n = peek();
                if (!n.isWord("NULL")) {
                    throw unexpected(
                            n, negated ? "NULL after IS NOT" : "NULL or NOT NULL after IS");
                }
                next();
                a =
                        checkedOperator(
                                negated ? "isNotNull" : "isNull",
                                negated ? "IS NOT NULL" : "IS NULL",
                                FunctionCall.Form.POSTFIX,
                                List.of(a),
                                k.start());
            }
            return a;
        }

        /**
         * {@code a [NOT] BETWEEN lo AND hi}: as ClickHouse parses it, {@code (a >= lo) AND (a <=
         * hi)} ({@code (a < lo) OR (a > hi)} with NOT).
         */
        Ast between() {
            Ast a = comparison();
            Token k = peek();
            boolean negated = k.isWord("NOT") && peekAt(1).isWord("BETWEEN");
            if (!k.isWord("BETWEEN") && !negated) {
                return a;
            }
            next();
            if (negated) {
                next();
            }
            Ast low = comparison();
            Token and = peek();
            if (!and.isWord("AND")) {
                throw unexpected(and, "AND in BETWEEN");
            }
            next();
            Ast high = comparison();
            int at = k.start();
            Ast lower =
                    checkedOperator(
                            negated ? "less" : "greaterOrEquals",
                            negated ? "<" : ">=",
                            FunctionCall.Form.INFIX,
                            List.of(a, low),
                            at);
            Ast upper =
                    checkedOperator(
                            negated ? "greater" : "lessOrEquals",
                            negated ? ">" : "<=",
                            FunctionCall.Form.INFIX,
                            List.of(a, high),
                            at);
            return checkedOperator(
                    negated ? "or" : "and",
                    negated ? "OR" : "AND",
                    FunctionCall.Form.INFIX,
                    List.of(lower, upper),
                    at);
        }

        /**
         * {@code = == != <> < <= > >=} and {@code [NOT] IN}, left-associative ({@code a = b = c} is
         * {@code (a = b) = c}, as in ClickHouse).
         */
        Ast comparison() {
            Ast left = additive();
            while (true) {
                Token k = peek();
                String function = null;
                String op = null;
                if (k.type() == Type.EQUALS) {
                    function = "equals";
                    op = "=";
                } else if (k.type() == Type.OPERATOR) {
                    switch (k.text()) {
                        case "==" -> {
                            function = "equals";
                            op = "=";
                        }
                        case "!=", "<>" -> {
                            function = "notEquals";
                            op = "!=";
                        }
                        case "<" -> {
                            function = "less";
                            op = "<";
                        }
                        case ">" -> {
                            function = "greater";
                            op = ">";
                        }
                        case "<=" -> {
                            function = "lessOrEquals";
                            op = "<=";
                        }
                        case ">=" -> {
                            function = "greaterOrEquals";
                            op = ">=";
                        }
                        default -> {}
                    }
                }
                if (function != null) {
                    next();
                    Ast right = additive();
                    left =
                            checkedOperator(
                                    function,
                                    op,
                                    FunctionCall.Form.INFIX,
                                    List.of(left, right),
                                    k.start());
                    continue;
                }
                boolean notIn = k.isWord("NOT") && peekAt(1).isWord("IN");
                if (k.isWord("IN") || notIn) {
                    next();
                    if (notIn) {
                        next();
                    }
                    Ast set = additive();
                    List<Ast> args = new ArrayList<>();
                    args.add(left);
                    boolean tuple =
                            set.kind == Ast.Kind.TUPLE
                                    || (set.kind == Ast.Kind.CALL
                                            && set.form == FunctionCall.Form.CALL
                                            && set.name.equals("tuple"));
                    if (tuple) {
                        args.addAll(set.args);
                    } else {
                        args.add(set);
                    }
                    left =
                            checkedOperator(
                                    notIn ? "notIn" : "in",
                                    notIn ? "NOT IN" : "IN",
                                    FunctionCall.Form.IN,
                                    args,
                                    k.start());
                    continue;
                }
                return left;
            }
        }

        Ast additive() {
            Ast left = multiplicative();
            while (true) {
                Token k = peek();
                if (k.type() == Type.PLUS || k.type() == Type.MINUS) {
                    next();
                    Ast right = multiplicative();
                    boolean plus = k.type() == Type.PLUS;
                    left =
                            checkedOperator(
                                    plus ? "plus" : "minus",
                                    plus ? "+" : "-",
                                    FunctionCall.Form.INFIX,
                                    List.of(left, right),
                                    k.start());
                } else {
                    return left;
                }
            }
        }

        Ast multiplicative() {
            Ast left = unary();
            while (true) {
                Token k = peek();
                String name;
                switch (k.type()) {
                    case STAR -> name = "multiply";
                    case SLASH -> name = "divide";
                    case PERCENT -> name = "modulo";
                    default -> {
                        return left;
                    }
                }
                next();
                Ast right = unary();
                left =
                        checkedOperator(
                                name,
                                k.text(),
                                FunctionCall.Form.INFIX,
                                List.of(left, right),
                                k.start());
            }
        }

        Ast unary() {
            Token k = peek();
            if (k.type() == Type.MINUS) {
                next();
                Token n = peek();
                if (n.type() == Type.NUMBER) {
                    next();
                    return Ast.literal(number(n, true), k.start());
                }
                if (n.isWord("inf") || n.isWord("infinity")) {
                    next();
                    return Ast.literal(Literal.ofDouble(Double.NEGATIVE_INFINITY), k.start());
                }
                if (n.isWord("nan")) {
                    next();
                    return Ast.literal(Literal.ofDouble(-Double.NaN), k.start());
                }
                enter(k);
                Ast a = unary();
                leave();
                return checkedOperator(
                        "negate", "-", FunctionCall.Form.PREFIX, List.of(a), k.start());
            }
            if (k.type() == Type.PLUS) {
                next();
                enter(k);
                Ast a = unary();
                leave();
                return a;
            }
            return postfix();
        }

        /** A primary expression followed by {@code ::T} casts and {@code [i]} subscripts. */
        Ast postfix() {
            Ast a = primary();
            while (true) {
                Token k = peek();
                if (k.type() == Type.OPERATOR && k.text().equals("::")) {
                    next();
                    DataType type = typeAt(peek());
                    a = checked(Ast.cast(a, type, k.start()));
                } else if (k.type() == Type.OPEN_BRACKET) {
                    // a[i] is arrayElement(a, i), as ClickHouse parses it
                    next();
                    enter(k);
                    Ast index = expression();
                    checkEnd();
                    expect(Type.CLOSE_BRACKET, "']' after the subscript");
                    leave();
                    a =
                            checkedOperator(
                                    "arrayElement",
                                    "[]",
                                    FunctionCall.Form.SUBSCRIPT,
                                    List.of(a, index),
                                    k.start());
                } else {
                    return a;
                }
            }
        }

        Ast checkedOperator(
                String name, String op, FunctionCall.Form form, List<Ast> args, int at) {
            return checked(Ast.operator(name, op, form, args, at));
        }

        /** Parses a data type starting at token {@code k} and skips the tokens it spans. */
        DataType typeAt(Token k) {
            DataTypeParser.Result r;
            try {
                r =
                        DataTypeParser.parsePrefix(
                                text, k.start(), limits.maxAstDepth(), limits.astDepthBase());
            } catch (DataTypeParser.TypeParseException e) {
                throw ExprException.syntax(e.detail(), e.position());
            }
            while (peek().type() != Type.EOF && peek().start() < r.end()) {
                next();
            }
            return r.type();
        }

        Ast primary() {
            Token k = next();
            switch (k.type()) {
                case NUMBER:
                    return Ast.literal(number(k, false), k.start());
                case STRING:
                    return Ast.literal(Literal.ofString(k.text()), k.start());
                case OPEN_PAREN:
                    {
                        List<Ast> items = new ArrayList<>();
                        if (peek().type() == Type.CLOSE_PAREN) {
                            next();
                            return Ast.tuple(items, k.start());
                        }
                        enter(k);
                        items.add(expression());
                        checkEnd();
                        boolean comma = false;
                        while (peek().type() == Type.COMMA) {
                            next();
                            comma = true;
                            if (peek().type() == Type.CLOSE_PAREN) {
                                break;
                            }
                            items.add(expression());
                            checkEnd();
                        }
                        expect(Type.CLOSE_PAREN, "')'");
                        leave();
                        if (items.size() == 1 && !comma) {
                            return items.get(0);
                        }
                        return checked(Ast.tuple(items, k.start()));
                    }
                case QUOTED_IDENTIFIER:
                    return Ast.identifier(k.text(), k.start());
                case BARE_WORD:
                    return word(k);
                case OPEN_BRACKET:
                    {
                        // [a, b] is array(a, b), as ClickHouse parses it
                        List<Ast> items = new ArrayList<>();
                        enter(k);
                        if (peek().type() != Type.CLOSE_BRACKET) {
                            while (true) {
                                items.add(expression());
                                checkEnd();
                                if (peek().type() == Type.COMMA) {
                                    next();
                                    continue;
                                }
                                break;
                            }
                        }
                        expect(Type.CLOSE_BRACKET, "',' or ']' in the array");
                        leave();
                        return checkedOperator(
                                "array", null, FunctionCall.Form.ARRAY, items, k.start());
                    }
                default:
                    throw unexpected(k, "an expression");
            }
        }

        Ast word(Token k) {
            String w = k.text();
            String u = w.toUpperCase(Locale.ROOT);
            if (peek().type() == Type.OPEN_PAREN) {
                if (u.equals("CAST")) {
                    return castCall(k);
                }
                next();
                enter(k);
                List<Ast> args = new ArrayList<>();
                if (peek().type() != Type.CLOSE_PAREN) {
                    while (true) {
                        if (peek().isWord("DISTINCT") || peek().type() == Type.STAR) {
                            throw ExprException.unsupported(
                                    "Aggregate syntax in " + w + "(...) is not supported",
                                    peek().start());
                        }
                        args.add(expression());
                        checkEnd();
                        if (peek().type() == Type.COMMA) {
                            next();
                            continue;
                        }
                        break;
                    }
                }
                expect(Type.CLOSE_PAREN, "',' or ')' in the arguments of " + w);
                leave();
                if (peek().type() == Type.OPEN_PAREN) {
                    throw ExprException.unsupported(
                            "Parametric functions (" + w + "(...)(...)) are not supported",
                            peek().start());
                }
                return checked(Ast.call(w, args, k.start()));
            }
            switch (u) {
                case "NULL":
                    return Ast.literal(NULL_MARKER, k.start());
                case "TRUE":
                    return Ast.literal(Literal.ofBool(true), k.start());
                case "FALSE":
                    return Ast.literal(Literal.ofBool(false), k.start());
                case "INF":
                case "INFINITY":
                    return Ast.literal(Literal.ofDouble(Double.POSITIVE_INFINITY), k.start());
                case "NAN":
                    return Ast.literal(Literal.ofDouble(Double.NaN), k.start());
                case "INTERVAL":
                    return interval(k);
                case "CASE":
                case "NOT":
                case "SELECT":
                case "ARRAY":
                    throw ExprException.unsupported(
                            u + " expressions are not supported", k.start());
                default:
                    return Ast.identifier(w, k.start());
            }
        }

        /**
         * {@code INTERVAL n UNIT} (the unit singular or plural) or {@code INTERVAL 'n unit'}: the
         * call {@code toInterval<Unit>(n)}, as ClickHouse parses and prints it.
         */
        Ast interval(Token k) {
            enter(k);
            Ast count;
            String unitWord;
            int unitAt;
            if (peek().type() == Type.STRING) {
                Token s = next();
                String[] parts = s.text().trim().split("\\s+");
                if (parts.length != 2 || !parts[0].matches("-?\\d+")) {
                    throw ExprException.syntax(
                            "Cannot parse the interval '" + s.text() + "': expected 'n unit'",
                            s.start());
                }
                count = Ast.literal(Literal.ofLong(Long.parseLong(parts[0])), s.start());
                unitWord = parts[1];
                unitAt = s.start();
            } else {
                count = unary();
                Token u = peek();
                if (u.type() != Type.BARE_WORD) {
                    throw unexpected(
                            u,
                            "an interval unit (SECOND, MINUTE, HOUR, DAY, WEEK,"
                                    + " MONTH, QUARTER, YEAR)");
                }
                next();
                unitWord = u.text();
                unitAt = u.start();
            }
            IntervalType.Unit unit = null;
            String upper = unitWord.toUpperCase(Locale.ROOT);
            for (IntervalType.Unit x : IntervalType.Unit.values()) {
                if (upper.equals(x.name()) || upper.equals(x.name() + "S")) {
                    unit = x;
                }
            }
            if (unit == null) {
                throw ExprException.syntax(
                        "Unknown interval unit '"
                                + unitWord
                                + "' (expected SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER"
                                + " or YEAR)",
                        unitAt);
            }
            leave();
            return checked(Ast.call("toInterval" + unit.title(), List.of(count), k.start()));
        }

        Ast castCall(Token k) {
            next(); // (
            enter(k);
            Ast arg = expression();
            checkEndExceptAs();
            DataType type;
            if (peek().isWord("AS")) {
                next();
                type = typeAt(peek());
            } else if (peek().type() == Type.COMMA) {
                next();
                Token s = expect(Type.STRING, "a type name as a string literal");
                try {
                    type = DataTypeParser.parse(s.text());
                } catch (DataTypeParser.TypeParseException e) {
                    throw ExprException.syntax(e.detail(), s.start());
                }
            } else {
                throw unexpected(peek(), "AS or ',' in CAST");
            }
            expect(Type.CLOSE_PAREN, "')' after CAST");
            leave();
            return checked(Ast.cast(arg, type, k.start()));
        }

        void checkEndExceptAs() {
            if (!peek().isWord("AS")) {
                checkEnd();
            }
        }

        Literal number(Token k, boolean negative) {
            String s = k.text();
            try {
                if (s.startsWith("0x") || s.startsWith("0X")) {
                    return integer(new BigInteger(s.substring(2), 16), negative, s);
                }
                if (s.startsWith("0b") || s.startsWith("0B")) {
                    return integer(new BigInteger(s.substring(2), 2), negative, s);
                }
                if (s.indexOf('.') < 0 && s.indexOf('e') < 0 && s.indexOf('E') < 0) {
                    return integer(new BigInteger(s), negative, s);
                }
                double d = Double.parseDouble(s);
                return Literal.ofDouble(negative ? -d : d);
            } catch (NumberFormatException e) {
                throw ExprException.syntax("Malformed number " + s, k.start());
            }
        }

        static Literal integer(BigInteger v, boolean negative, String text) {
            if (negative) {
                v = v.negate();
                if (v.bitLength() <= 63) {
                    return Literal.ofLong(v.longValue());
                }
                return Literal.ofDouble(v.doubleValue());
            }
            if (v.bitLength() <= 64) {
                return Literal.ofUnsignedLong(v.longValue());
            }
            return Literal.ofDouble(v.doubleValue());
        }
    }

    /** The NULL literal before typing (typed by the DEFAULT context). */
    private static final Literal NULL_MARKER =
            Literal.ofNull(
                    new io.github.s3mergetree.engine.types.NullableType(
                            io.github.s3mergetree.engine.types.DataTypes.UINT8));

    // ---------------------------------------------------------------------------------------
    // typing

    private static final class Binder {
        private final Map<String, DataType> columns;
        private final boolean partitionKey;

        Binder(Map<String, DataType> columns, boolean partitionKey) {
            this.columns = columns;
            this.partitionKey = partitionKey;
        }

        Expr bind(Ast a) {
            switch (a.kind) {
                case IDENTIFIER:
                    {
                        DataType t = columns.get(a.name);
                        if (t == null) {
                            throw ExprException.invalid(
                                    "Unknown column '" + a.name + "' in expression", a.position);
                        }
                        return new ColumnRef(a.name, t);
                    }
                case LITERAL:
                    if (a.literal == NULL_MARKER) {
                        throw ExprException.unsupported(
                                "NULL is only supported as a whole DEFAULT value", a.position);
                    }
                    return a.literal;
                case TUPLE:
                    {
                        List<Expr> args = bindAll(a.args);
                        Functions.Def def = Functions.lookup("tuple");
                        return Functions.call(def, args, a.position, FunctionCall.Form.TUPLE, null);
                    }
                case CAST:
                    {
                        Expr arg = bind(a.args.get(0));
                        return ConversionFunctions.cast(arg, a.castType, a.position, true);
                    }
                default:
                    {
                        String name = a.name;
                        Functions.Def def = Functions.lookup(name);
                        if (def == null) {
                            throw ExprException.unsupported(
                                    "Function "
                                            + name
                                            + " is unknown or not supported by this engine",
                                    a.position);
                        }
                        String printName = a.operator;
                        if (partitionKey && def.name().equals("modulo")) {
                            // ClickHouse computes % in partition keys with moduloLegacy
                            def = Functions.lookup("moduloLegacy");
                            if (a.form == FunctionCall.Form.CALL) {
                                printName = "modulo";
                            }
                        }
                        List<Ast> argAsts = a.args;
                        if (a.form == FunctionCall.Form.IN) {
                            // NULL in the set matches nothing (transform_null_in = 0)
                            argAsts = new ArrayList<>();
                            for (Ast x : a.args) {
                                if (x.kind != Ast.Kind.LITERAL || x.literal != NULL_MARKER) {
                                    argAsts.add(x);
                                }
                            }
                        }
                        List<Expr> args = bindAll(argAsts);
                        FunctionCall.Form form =
                                def.name().equals("tuple") ? FunctionCall.Form.TUPLE : a.form;
                        return Functions.call(def, args, a.position, form, printName);
                    }
            }
        }

        List<Expr> bindAll(List<Ast> asts) {
            List<Expr> out = new ArrayList<>(asts.size());
            for (Ast x : asts) {
                out.add(bind(x));
            }
            return out;
        }
    }
}
