package dev.frontrun.specs.conformance;

import dev.frontrun.specs.conformance.TlaValues.ModelValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One state of {@code TransactionsAndLocks.tla}, typed: what each transaction runs and where it
 * is, who holds and who waits for each row lock, savepoints, snapshots and the spec's own answer
 * to "which transactions are on a wait-for cycle". Transactions and rows are the names of their
 * model values ({@code T1}, {@code r1}); a transaction's Java thread index is its position in
 * {@link #txs()}.
 */
public final class SpecState {

    /** One program item: a row statement ({@code SELECT}, {@code FOR_UPDATE}, {@code NOWAIT}, {@code SKIP_LOCKED}, {@code UPDATE}) or {@code SAVEPOINT} / {@code ROLLBACK_TO}. */
    public record Item(String op, String row) {
        public boolean rowStatement() {
            return !op.equals("SAVEPOINT") && !op.equals("ROLLBACK_TO");
        }

        public boolean takesLock() {
            return rowStatement() && !op.equals("SELECT");
        }

        @Override
        public String toString() {
            return rowStatement() ? op + " " + row : op;
        }
    }

    /** sp[t]: whether a savepoint is set, and the locks held and rows written when it was. */
    public record Savepoint(boolean set, Set<String> held, Set<String> wrote) {}

    private final long id;
    private final List<String> txs;
    private final List<String> rows;
    private final Map<String, List<Item>> prog = new HashMap<>();
    private final Map<String, String> iso = new HashMap<>();
    private final Map<String, Integer> pc = new HashMap<>();
    private final Map<String, String> phase = new HashMap<>();
    private final Map<String, Set<String>> held = new HashMap<>();
    private final Map<String, List<String>> queue = new HashMap<>();
    private final Map<String, Savepoint> sp = new HashMap<>();
    private final Map<String, Boolean> snapshotTaken = new HashMap<>();
    private final Set<String> onCycle;

    public SpecState(long id, Map<String, Object> vars) {
        this.id = id;
        Map<String, Object> progs = function(vars.get("prog"));
        this.txs = List.copyOf(new TreeSet<>(progs.keySet()));
        this.rows = List.copyOf(new TreeSet<>(function(vars.get("queue")).keySet()));
        for (String t : txs) {
            List<Item> items = new ArrayList<>();
            for (Object o : (List<?>) progs.get(t)) {
                Map<?, ?> r = (Map<?, ?>) o;
                items.add(new Item((String) r.get("op"), name(r.get("row"))));
            }
            prog.put(t, List.copyOf(items));
            iso.put(t, (String) function(vars.get("iso")).get(t));
            pc.put(t, ((Long) function(vars.get("pc")).get(t)).intValue());
            phase.put(t, (String) function(vars.get("phase")).get(t));
            held.put(t, names(function(vars.get("held")).get(t)));
            Map<?, ?> s = (Map<?, ?>) function(vars.get("sp")).get(t);
            sp.put(t, new Savepoint((Boolean) s.get("set"), names(s.get("held")), names(s.get("wrote"))));
            snapshotTaken.put(
                    t, (Boolean) ((Map<?, ?>) function(vars.get("snap")).get(t)).get("taken"));
        }
        for (String r : rows) {
            List<String> line = new ArrayList<>();
            for (Object o : (List<?>) function(vars.get("queue")).get(r)) {
                line.add(name(o));
            }
            queue.put(r, List.copyOf(line));
        }
        this.onCycle = names(vars.get("onCycle"));
    }

    public long id() {
        return id;
    }

    public List<String> txs() {
        return txs;
    }

    public List<String> rows() {
        return rows;
    }

    public int thread(String tx) {
        return txs.indexOf(tx);
    }

    public List<Item> prog(String tx) {
        return prog.get(tx);
    }

    public boolean repeatableRead(String tx) {
        return iso.get(tx).equals("RR");
    }

    public int pc(String tx) {
        return pc.get(tx);
    }

    public String phase(String tx) {
        return phase.get(tx);
    }

    public boolean hasNext(String tx) {
        return pc(tx) <= prog(tx).size();
    }

    /** The item {@code tx} is at (it runs, waits for, or failed in). */
    public Item current(String tx) {
        return prog(tx).get(pc(tx) - 1);
    }

    /** The items {@code tx} has finished (completed, skipped, or failed and recovered from). */
    public List<Item> done(String tx) {
        return prog(tx).subList(0, pc(tx) - 1);
    }

    public Set<String> held(String tx) {
        return held.get(tx);
    }

    public Optional<String> holder(String row) {
        return txs.stream().filter(t -> held(t).contains(row)).findFirst();
    }

    public List<String> queue(String row) {
        return queue.get(row);
    }

    public Savepoint savepoint(String tx) {
        return sp.get(tx);
    }

    public boolean snapshotTaken(String tx) {
        return snapshotTaken.get(tx);
    }

    /** The spec's answer (variable {@code onCycle}): the transactions on a wait-for cycle. */
    public Set<String> onCycle() {
        return onCycle;
    }

    public boolean waiting(String tx) {
        return phase(tx).equals("waiting");
    }

    public boolean anyGranted() {
        return txs.stream().anyMatch(t -> phase(t).equals("granted"));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("state ").append(id).append(':');
        for (String t : txs) {
            sb.append(' ')
                    .append(t)
                    .append('[')
                    .append(iso.get(t))
                    .append(' ')
                    .append(prog(t))
                    .append(" pc=")
                    .append(pc(t))
                    .append(' ')
                    .append(phase(t))
                    .append(" held=")
                    .append(held(t));
            if (savepoint(t).set()) {
                sb.append(" sp.held=").append(savepoint(t).held());
            }
            sb.append(']');
        }
        for (String r : rows) {
            if (!queue(r).isEmpty()) {
                sb.append(" queue[").append(r).append("]=").append(queue(r));
            }
        }
        return sb.toString();
    }

    private static Map<String, Object> function(Object value) {
        Map<String, Object> out = new HashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> out.put(name(k), v));
        return out;
    }

    private static Set<String> names(Object set) {
        Set<String> out = new LinkedHashSet<>();
        for (Object o : (Set<?>) set) {
            out.add(name(o));
        }
        return Set.copyOf(new TreeSet<>(out));
    }

    private static String name(Object modelValue) {
        return modelValue instanceof ModelValue m ? m.name() : String.valueOf(modelValue);
    }
}
