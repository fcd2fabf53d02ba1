package dev.frontrun.oracle;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One thread's program as application code would run it, one step at a time: a step is one
 * statement, or a transaction boundary that can change what others see (COMMIT, ROLLBACK, ROLLBACK
 * TO SAVEPOINT). BEGIN and SAVEPOINT ride with the statement after them: neither is visible to
 * another session, so no interleaving can tell them apart.
 *
 * <p>A failing statement is caught: its SQLSTATE is recorded, and inside a transaction the thread
 * then rolls back (or back to its savepoint, and commits what came before) and stops; so does a
 * transaction whose version check ({@code CHECKED_UPDATE}) updated nothing, by a plain ROLLBACK. The ground
 * truth runs steps one by one on an executor; the exploration runs them all in a row.
 */
final class ThreadRun {

    /** What a step does on the connection; returns the text to record, or null. */
    private interface Action {
        String run(Connection c) throws SQLException;
    }

    private record Step(String label, String tag, boolean statement, Action action) {}

    private final ThreadProgram program;
    private final Deque<Step> steps = new ArrayDeque<>();
    private final List<String> results = new ArrayList<>();
    private Savepoint savepoint;
    private Savepoint undo;
    private boolean savepointTaken;

    ThreadRun(ThreadProgram program) {
        this.program = program;
        for (int i = 0; i < program.ops().size(); i++) {
            addOp(i);
        }
        if (program.transactional()) {
            steps.add(new Step(program.jdbcStyle() ? "commit()" : "COMMIT", "commit", false, c -> {
                end(c, true);
                return "ok";
            }));
        }
    }

    boolean done() {
        return steps.isEmpty();
    }

    /** The next step, for schedules and logs. */
    String next() {
        return steps.isEmpty() ? "(done)" : steps.peek().label();
    }

    /** What the thread recorded: one entry per step that reported something. */
    List<String> results() {
        return List.copyOf(results);
    }

    /** Runs the next step; a failing statement is recorded and handled as the application would, never thrown. */
    void runNext(Connection c) {
        Step step = steps.poll();
        if (step == null) {
            throw new IllegalStateException("the thread has no step left");
        }
        try {
            String result = step.action().run(c);
            if (result != null) {
                results.add(step.tag() + "=" + result);
            }
        } catch (SQLException e) {
            results.add(step.tag() + "!" + e.getSQLState());
            failed(step);
        }
    }

    private void addOp(int index) {
        Op op = program.ops().get(index);
        boolean first = index == 0;
        boolean takesSavepoint = index == program.savepointBefore();
        String prefix = (first && program.transactional() ? begin() + "; " : "")
                + (takesSavepoint ? (program.jdbcStyle() ? "setSavepoint(s)" : "SAVEPOINT s") + "; " : "")
                + (op.kind() == Op.Kind.UNDONE_UPDATE ? "SAVEPOINT u; " : "");
        String tag = "s" + (index + 1);
        steps.add(new Step(prefix + op, tag, true, c -> {
            if (first && program.transactional()) {
                begin(c);
            }
            if (takesSavepoint) {
                savepoint = savepoint(c, "s");
                savepointTaken = true;
            }
            if (op.kind() == Op.Kind.UNDONE_UPDATE) {
                undo = savepoint(c, "u");
                steps.addFirst(new Step("ROLLBACK TO SAVEPOINT u", tag + "u", false, cc -> {
                    rollbackTo(cc, undo, "u");
                    return "ok";
                }));
            }
            String result = op.run(c);
            if (op.kind() == Op.Kind.UPDATE_OR_INSERT && "0".equals(result)) {
                Op insert = op.insertAfterUpdate();
                steps.addFirst(new Step(insert.toString(), tag + "i", true, cc -> insert.run(cc)));
            }
            if (op.kind() == Op.Kind.CHECKED_UPDATE && "0".equals(result) && program.transactional()) {
                steps.clear(); // stale: the application gives the transaction up
                steps.add(rollback());
            }
            return result;
        }));
    }

    /** After a failed step: in a transaction, roll back (to the savepoint if one was taken) and stop. */
    private void failed(Step step) {
        if (!program.transactional()) {
            return;
        }
        steps.clear();
        if (!step.statement()) {
            return; // COMMIT or a rollback failed: the transaction is over either way
        }
        if (savepointTaken) {
            steps.add(new Step(
                    program.jdbcStyle() ? "rollback(s)" : "ROLLBACK TO SAVEPOINT s", "rollback-to-s", false, c -> {
                        rollbackTo(c, savepoint, "s");
                        return "ok";
                    }));
            steps.add(new Step(program.jdbcStyle() ? "commit()" : "COMMIT", "commit", false, c -> {
                end(c, true);
                return "ok";
            }));
        } else {
            steps.add(rollback());
        }
    }

    private Step rollback() {
        return new Step(program.jdbcStyle() ? "rollback()" : "ROLLBACK", "rollback", false, c -> {
            end(c, false);
            return "ok";
        });
    }

    private String begin() {
        return program.jdbcStyle()
                ? "setTransactionIsolation(" + program.mode().sql + "); setAutoCommit(false)"
                : "BEGIN ISOLATION LEVEL " + program.mode().sql;
    }

    private void begin(Connection c) throws SQLException {
        if (program.jdbcStyle()) {
            c.setTransactionIsolation(program.mode().jdbcLevel);
            c.setAutoCommit(false);
        } else {
            execute(c, "BEGIN ISOLATION LEVEL " + program.mode().sql);
        }
    }

    private Savepoint savepoint(Connection c, String name) throws SQLException {
        if (program.jdbcStyle()) {
            return c.setSavepoint(name);
        }
        execute(c, "SAVEPOINT " + name);
        return null;
    }

    private void rollbackTo(Connection c, Savepoint jdbcSavepoint, String name) throws SQLException {
        if (program.jdbcStyle()) {
            c.rollback(jdbcSavepoint);
        } else {
            execute(c, "ROLLBACK TO SAVEPOINT " + name);
        }
    }

    /** COMMIT or ROLLBACK; a JDBC-style thread goes back to autocommit even when the commit fails. */
    private void end(Connection c, boolean commit) throws SQLException {
        if (!program.jdbcStyle()) {
            execute(c, commit ? "COMMIT" : "ROLLBACK");
            return;
        }
        try {
            if (commit) {
                c.commit();
            } else {
                c.rollback();
            }
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
