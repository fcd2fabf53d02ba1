package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.FunctionPolicy;
import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.Operand;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.XmlTableFunction;

/** Turns function calls into uses, since a call may advance a sequence, take an advisory lock or touch any table. */
final class CallAnalyzer {

    private static final Set<String> INTEGER_TYPES =
            Set.of("bigint", "int8", "integer", "int", "int4", "smallint", "int2");

    private final Findings findings;
    private final OperandReader operands;

    CallAnalyzer(Findings findings, OperandReader operands) {
        this.findings = findings;
        this.operands = operands;
    }

    void function(Function f) {
        List<String> parts = f.getMultipartName();
        String name;
        String schema = null;
        if (parts != null && !parts.isEmpty()) {
            name = Identifiers.fold(parts.get(parts.size() - 1));
            if (parts.size() >= 2) {
                schema = Identifiers.fold(parts.get(parts.size() - 2));
            }
        } else {
            name = Identifiers.fold(f.getName());
        }
        if (f instanceof XmlTableFunction) {
            return; // XMLTABLE evaluates its paths over its arguments, which are walked on
        }
        if (name == null) {
            throw Unsupported.because("a call without a name: " + f);
        }
        Expression firstArgument =
                f.getParameters() != null && !f.getParameters().isEmpty()
                        ? (Expression) f.getParameters().get(0)
                        : null;
        FunctionPolicy.Effect effect = FunctionPolicy.effect(schema, name);
        if (effect == FunctionPolicy.Effect.ADVISORY_XACT_LOCK || effect == FunctionPolicy.Effect.ADVISORY_XACT_TRY) {
            findings.add(new TableUse.AdvisoryLock(
                    advisoryKey(name, f), effect == FunctionPolicy.Effect.ADVISORY_XACT_LOCK));
            return; // its arguments are walked on: a function computing the key must be known too
        }
        call(schema, name, firstArgument);
    }

    /**
     * The key of an advisory lock call, one operand per argument (one bigint, or two integers). A placeholder or an
     * integer literal, also cast to an integer type; anything else (a column, {@code hashtext(?)}) an unknown operand,
     * which makes the call stand for every advisory lock.
     */
    private List<Operand> advisoryKey(String function, Function f) {
        int arguments = f.getParameters() == null ? 0 : f.getParameters().size();
        if (arguments != 1 && arguments != 2) {
            throw Unsupported.because(function + "() with " + arguments + " arguments");
        }
        List<Operand> key = new ArrayList<>();
        for (Object argument : f.getParameters()) {
            Expression e = (Expression) argument;
            while (e instanceof CastExpression cast
                    && cast.getColDataType() != null
                    && INTEGER_TYPES.contains(
                            cast.getColDataType().getDataType().toLowerCase(Locale.ROOT))) {
                e = cast.getLeftExpression();
            }
            key.add(operands.read(e));
        }
        return key;
    }

    void call(String schema, String name, Expression firstArgument) {
        FunctionPolicy.Effect effect = FunctionPolicy.effect(schema, name);
        switch (effect) {
            case PURE -> {}
            case SEQUENCE_NEXT -> findings.add(new TableUse.SequenceNext(sequenceArgument(name, firstArgument)));
            case SEQUENCE_SET -> findings.add(new TableUse.SequenceSet(sequenceArgument(name, firstArgument)));
            default -> findings.add(new TableUse.Call(schema, name));
        }
    }

    private static TableName sequenceArgument(String function, Expression argument) {
        Expression e = argument;
        if (e instanceof CastExpression cast
                && cast.getColDataType() != null
                && "regclass".equalsIgnoreCase(cast.getColDataType().getDataType())) {
            e = cast.getLeftExpression();
        }
        if (e instanceof StringValue s && s.getPrefix() == null) {
            return sequence(s.getValue().replace("''", "'"));
        }
        throw Unsupported.because(function + "() with a sequence that is not a literal");
    }

    static TableName sequence(String regclassText) {
        TableName name = FunctionPolicy.sequenceName(regclassText);
        if (name == null) {
            throw Unsupported.because("sequence name '" + regclassText + "' is not understood");
        }
        return name;
    }
}
