package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.syntax.LockIntent;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import dev.frontrun.internal.sql.syntax.TableName;
import dev.frontrun.internal.sql.syntax.TableUse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Collects what the clause analyzers find in one statement, so each adds to one result in encounter order. */
final class Findings {

    /** Table uses in encounter order: {@link UseBuilder}s until built, or finished {@link TableUse}s. */
    private final List<Object> uses = new ArrayList<>();

    private final Set<Object> analysed = AstNodes.identitySet();
    private LockIntent lock;
    private boolean returning;

    void add(UseBuilder use) {
        uses.add(use);
    }

    void add(TableUse use) {
        uses.add(use);
    }

    /** Whether {@code statement} is met for the first time (a node reached twice is analysed once). */
    boolean firstVisit(Object statement) {
        return analysed.add(statement);
    }

    /** Keeps the first lock intent met: the statement's own {@code FOR …} clause comes before subqueries'. */
    void lock(LockIntent intent) {
        if (lock == null) {
            lock = intent;
        }
    }

    void returning(boolean present) {
        returning |= present;
    }

    StatementSyntax.Data data(StatementKind kind) {
        List<TableUse> built = new ArrayList<>(uses.size());
        for (Object use : uses) {
            built.add(use instanceof UseBuilder b ? b.build() : (TableUse) use);
        }
        return new StatementSyntax.Data(kind, built, lock, returning, StatementSyntax.Parser.JSQLPARSER);
    }

    StatementSyntax.Opaque opaque(StatementKind kind, String reason) {
        return new StatementSyntax.Opaque(kind, Access.WRITE, reason, mentioned(), StatementSyntax.Parser.JSQLPARSER);
    }

    private List<TableName> mentioned() {
        List<TableName> names = new ArrayList<>();
        for (Object use : uses) {
            if (use instanceof TableUse.Call) {
                continue;
            }
            TableName name = use instanceof UseBuilder b ? b.table() : ((TableUse) use).table();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }
}
