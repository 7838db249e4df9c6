package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import java.util.List;

/** An untyped expression syntax tree, as parsed, before names and functions are resolved. */
final class Ast {
    enum Kind {
        IDENTIFIER,
        LITERAL,
        CALL,
        TUPLE,
        CAST
    }

    final Kind kind;
    final String name;
    final Literal literal;
    final List<Ast> args;
    final int position;
    final FunctionCall.Form form;
    final String operator;
    final DataType castType;

    /**
     * The depth of this tree as ClickHouse counts it ({@code max_ast_depth}): 1 for a name or
     * literal, 2 more than the deepest argument for a function, operator, tuple or CAST (the
     * function and its argument list). Computed when the node is built, without recursion.
     */
    final int depth;

    private Ast(
            Kind kind,
            String name,
            Literal literal,
            List<Ast> args,
            int position,
            FunctionCall.Form form,
            String operator,
            DataType castType) {
        this.kind = kind;
        this.name = name;
        this.literal = literal;
        this.args = args;
        this.position = position;
        this.form = form;
        this.operator = operator;
        this.castType = castType;
        int deepest = kind == Kind.CAST ? 1 : 0;
        for (Ast a : args) {
            deepest = Math.max(deepest, a.depth);
        }
        this.depth = kind == Kind.IDENTIFIER || kind == Kind.LITERAL ? 1 : 2 + deepest;
    }

    static Ast identifier(String name, int pos) {
        return new Ast(Kind.IDENTIFIER, name, null, List.of(), pos, null, null, null);
    }

    static Ast literal(Literal l, int pos) {
        return new Ast(Kind.LITERAL, null, l, List.of(), pos, null, null, null);
    }

    static Ast call(String name, List<Ast> args, int pos) {
        return new Ast(
                Kind.CALL, name, null, List.copyOf(args), pos, FunctionCall.Form.CALL, null, null);
    }

    static Ast operator(String name, String op, FunctionCall.Form form, List<Ast> args, int pos) {
        return new Ast(Kind.CALL, name, null, List.copyOf(args), pos, form, op, null);
    }

    static Ast tuple(List<Ast> args, int pos) {
        return new Ast(
                Kind.TUPLE,
                "tuple",
                null,
                List.copyOf(args),
                pos,
                FunctionCall.Form.TUPLE,
                null,
                null);
    }

    static Ast cast(Ast arg, DataType type, int pos) {
        return new Ast(
                Kind.CAST, "CAST", null, List.of(arg), pos, FunctionCall.Form.CALL, null, type);
    }
}
