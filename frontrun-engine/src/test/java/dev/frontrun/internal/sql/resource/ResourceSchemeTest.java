package dev.frontrun.internal.sql.resource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.frontrun.Access;
import dev.frontrun.ResourceAccess;
import dev.frontrun.internal.sql.syntax.TableName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Checks the weak/strong resource scheme against a semantic model, exhaustively over a small world
 * (tables a and b with rows 1 and 2, their membership, a sequence): two statements' accesses must
 * conflict exactly when the statements touch a common data item and one of them writes it. "Exactly"
 * covers both directions: soundness (no missed conflict) and precision (no conflict between, e.g.,
 * reads or writes of different rows).
 */
class ResourceSchemeTest {

    private static final TableName A = new TableName("public", "a");
    private static final TableName B = new TableName("billing", "b");
    private static final TableName SEQ = new TableName("public", "s");
    private static final List<TableName> TABLES = List.of(A, B);
    private static final List<Integer> ROWS = List.of(1, 2);

    /**
     * One access of a statement, with its meaning: data items read, written, and changed commutatively
     * ({@code weakWrites}: adding different rows to a table's membership, taking sequence values).
     */
    private record Atom(
            String name,
            Consumer<AccessSetBuilder> report,
            Set<String> reads,
            Set<String> writes,
            Set<String> weakWrites) {}

    private static String row(TableName t, int r) {
        return t.display() + ":" + r;
    }

    private static String members(TableName t) {
        return t.display() + "#m";
    }

    private static Set<String> allRows(TableName t) {
        Set<String> out = new HashSet<>();
        for (int r : ROWS) {
            out.add(row(t, r));
        }
        return out;
    }

    private static Set<String> everything() {
        Set<String> out = new HashSet<>();
        for (TableName t : TABLES) {
            out.addAll(allRows(t));
            out.add(members(t));
        }
        out.add("seq");
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }

    private static List<Atom> atoms() {
        List<Atom> atoms = new ArrayList<>();
        for (TableName t : TABLES) {
            for (int r : ROWS) {
                String key = "(" + r + ")";
                atoms.add(new Atom(
                        "read " + row(t, r),
                        b -> b.row(t, key, List.of("id"), List.of(String.valueOf(r)), true, false),
                        Set.of(row(t, r)),
                        Set.of(),
                        Set.of()));
                atoms.add(new Atom(
                        "update " + row(t, r),
                        b -> b.row(t, key, List.of("id"), List.of(String.valueOf(r)), true, true),
                        Set.of(row(t, r)),
                        Set.of(row(t, r)),
                        Set.of()));
                atoms.add(new Atom(
                        "insert " + row(t, r),
                        b -> b.row(t, key, List.of("id"), List.of(String.valueOf(r)), false, true)
                                .membership(t),
                        Set.of(),
                        Set.of(row(t, r)),
                        Set.of(members(t))));
                atoms.add(new Atom(
                        "delete " + row(t, r),
                        b -> b.row(t, key, List.of("id"), List.of(String.valueOf(r)), true, true)
                                .membership(t),
                        Set.of(row(t, r)),
                        Set.of(row(t, r)),
                        Set.of(members(t))));
            }
            atoms.add(new Atom(
                    "scan " + t,
                    b -> b.table(t, true, false),
                    union(allRows(t), Set.of(members(t))),
                    Set.of(),
                    Set.of()));
            atoms.add(new Atom(
                    "update all " + t,
                    b -> b.table(t, true, true),
                    union(allRows(t), Set.of(members(t))),
                    allRows(t),
                    Set.of()));
            atoms.add(new Atom(
                    "delete all " + t,
                    b -> b.table(t, true, true).membership(t),
                    union(allRows(t), Set.of(members(t))),
                    allRows(t),
                    Set.of(members(t))));
            atoms.add(new Atom(
                    "insert rows of unknown key into " + t,
                    b -> b.table(t, false, true).membership(t),
                    Set.of(),
                    allRows(t),
                    Set.of(members(t))));
        }
        atoms.add(new Atom(
                "nextval",
                b -> b.sequence(SEQ, false),
                Set.of(),
                Set.of("seq"),
                Set.of())); // who gets which value depends on the order
        atoms.add(new Atom("setval", b -> b.sequence(SEQ, true), Set.of(), Set.of("seq"), Set.of()));
        atoms.add(new Atom("read everything", b -> b.endpoint(Access.READ), everything(), Set.of(), Set.of()));
        atoms.add(new Atom("write everything", b -> b.endpoint(Access.WRITE), everything(), everything(), Set.of()));
        return atoms;
    }

    /** A statement: one or two atoms. */
    private record Statement(List<Atom> atoms) {
        List<ResourceAccess> accesses() {
            AccessSetBuilder b = new AccessSetBuilder();
            atoms.forEach(a -> a.report.accept(b));
            return b.build().accesses();
        }

        Set<String> reads() {
            Set<String> out = new HashSet<>();
            atoms.forEach(a -> out.addAll(a.reads));
            return out;
        }

        Set<String> writes() {
            Set<String> out = new HashSet<>();
            atoms.forEach(a -> out.addAll(a.writes));
            return out;
        }

        Set<String> weakWrites() {
            Set<String> out = new HashSet<>();
            atoms.forEach(a -> out.addAll(a.weakWrites));
            return out;
        }

        @Override
        public String toString() {
            return atoms.stream().map(Atom::name).toList().toString();
        }
    }

    /** The ground truth: a common item written by one and touched by the other; commutative changes commute. */
    private static boolean semanticConflict(Statement x, Statement y) {
        return touchesWritten(x, y) || touchesWritten(y, x);
    }

    private static boolean touchesWritten(Statement writer, Statement other) {
        for (String item : writer.writes()) {
            if (other.reads().contains(item)
                    || other.writes().contains(item)
                    || other.weakWrites().contains(item)) {
                return true;
            }
        }
        for (String item : writer.weakWrites()) {
            if (other.reads().contains(item) || other.writes().contains(item)) {
                return true;
            }
        }
        return false;
    }

    private static boolean reportedConflict(List<ResourceAccess> x, List<ResourceAccess> y) {
        for (ResourceAccess a : x) {
            for (ResourceAccess b : y) {
                if (a.conflictsWith(b)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void accessesConflictExactlyWhenTheStatementsOverlapOnAWrittenItem() {
        List<Atom> atoms = atoms();
        List<Statement> statements = new ArrayList<>();
        for (int i = 0; i < atoms.size(); i++) {
            statements.add(new Statement(List.of(atoms.get(i))));
            for (int j = i + 1; j < atoms.size(); j++) {
                statements.add(new Statement(List.of(atoms.get(i), atoms.get(j))));
            }
        }
        List<List<ResourceAccess>> reported =
                statements.stream().map(Statement::accesses).toList();
        int pairs = 0;
        for (int i = 0; i < statements.size(); i++) {
            for (int j = i; j < statements.size(); j++) {
                Statement x = statements.get(i);
                Statement y = statements.get(j);
                assertThat(reportedConflict(reported.get(i), reported.get(j)))
                        .as("%s vs %s: %s vs %s", x, y, reported.get(i), reported.get(j))
                        .isEqualTo(semanticConflict(x, y));
                pairs++;
            }
        }
        assertThat(pairs).isGreaterThan(80_000);
    }

    @Test
    void theCasesTheDesignNames() {
        List<ResourceAccess> rowRead1 = build(b -> b.row(A, "(1)", List.of("id"), List.of("1"), true, false));
        List<ResourceAccess> rowRead2 = build(b -> b.row(A, "(2)", List.of("id"), List.of("2"), true, false));
        List<ResourceAccess> rowWrite1 = build(b -> b.row(A, "(1)", List.of("id"), List.of("1"), true, true));
        List<ResourceAccess> rowWrite2 = build(b -> b.row(A, "(2)", List.of("id"), List.of("2"), true, true));
        List<ResourceAccess> tableRead = build(b -> b.table(A, true, false));
        List<ResourceAccess> tableWrite = build(b -> b.table(A, true, true));
        List<ResourceAccess> insert2 = build(
                b -> b.row(A, "(2)", List.of("id"), List.of("2"), false, true).membership(A));
        List<ResourceAccess> insert1 = build(
                b -> b.row(A, "(1)", List.of("id"), List.of("1"), false, true).membership(A));
        List<ResourceAccess> opaque = build(b -> b.endpoint(Access.WRITE));
        assertThat(reportedConflict(rowRead1, rowRead2))
                .as("row read vs other row read")
                .isFalse();
        assertThat(reportedConflict(rowRead1, rowRead1))
                .as("row read vs same row read")
                .isFalse();
        assertThat(reportedConflict(rowWrite1, rowWrite2))
                .as("row writes, other rows")
                .isFalse();
        assertThat(reportedConflict(rowWrite1, rowWrite1))
                .as("row writes, same row")
                .isTrue();
        assertThat(reportedConflict(tableRead, rowWrite2))
                .as("table read vs row write")
                .isTrue();
        assertThat(reportedConflict(tableWrite, rowRead1))
                .as("table write vs row read")
                .isTrue();
        assertThat(reportedConflict(insert1, insert2))
                .as("inserts of other keys")
                .isFalse();
        assertThat(reportedConflict(insert2, tableRead))
                .as("insert vs predicate read")
                .isTrue();
        assertThat(reportedConflict(insert2, rowRead1))
                .as("insert vs other point read")
                .isFalse();
        assertThat(reportedConflict(opaque, rowRead1))
                .as("opaque vs any data access")
                .isTrue();
    }

    private static List<ResourceAccess> build(Consumer<AccessSetBuilder> report) {
        AccessSetBuilder b = new AccessSetBuilder();
        report.accept(b);
        return b.build().accesses();
    }
}
