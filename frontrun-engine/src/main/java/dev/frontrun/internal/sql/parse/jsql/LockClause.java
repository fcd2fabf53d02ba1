package dev.frontrun.internal.sql.parse.jsql;

import dev.frontrun.internal.sql.syntax.Identifiers;
import dev.frontrun.internal.sql.syntax.LockIntent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.ForUpdateClause;
import net.sf.jsqlparser.statement.select.PlainSelect;

/** Which tables of a block a {@code FOR UPDATE/SHARE} locks: all, or those named after OF. */
record LockClause(boolean all, Set<String> targets) {

    static final LockClause ALL = new LockClause(true, Set.of());

    boolean locks(String name) {
        return all || targets.contains(name);
    }

    /** The block's locking clause, or {@code null}; the statement's lock intent goes to {@code findings}. */
    static LockClause of(PlainSelect ps, Findings findings) {
        ForUpdateClause clause = ps.getForUpdate();
        ForMode mode = clause != null ? clause.getMode() : ps.getForMode();
        if (mode == null) {
            return null;
        }
        LockIntent.Strength strength = switch (mode) {
            case UPDATE -> LockIntent.Strength.UPDATE;
            case NO_KEY_UPDATE -> LockIntent.Strength.NO_KEY_UPDATE;
            case SHARE -> LockIntent.Strength.SHARE;
            case KEY_SHARE -> LockIntent.Strength.KEY_SHARE;
            default -> null;
        };
        if (strength == null) {
            return null;
        }
        boolean noWait = clause != null ? clause.isNoWait() : ps.isNoWait();
        boolean skipLocked = clause != null ? clause.isSkipLocked() : ps.isSkipLocked();
        findings.lock(new LockIntent(
                strength,
                skipLocked
                        ? LockIntent.WaitPolicy.SKIP_LOCKED
                        : noWait ? LockIntent.WaitPolicy.NOWAIT : LockIntent.WaitPolicy.WAIT));
        List<Table> of = clause != null && clause.getTables() != null ? clause.getTables() : ps.getForUpdateTables();
        if (of == null || of.isEmpty()) {
            return ALL;
        }
        Set<String> targets = new HashSet<>();
        for (Table t : of) {
            targets.add(Identifiers.fold(t.getName()));
        }
        return new LockClause(false, targets);
    }
}
