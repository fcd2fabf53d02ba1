package dev.frontrun.internal.serial;

import dev.frontrun.Failure;
import dev.frontrun.Outcomes;
import dev.frontrun.TraceStep;
import dev.frontrun.internal.engine.SerialCheck;
import dev.frontrun.internal.jdbc.DatabaseExplorationHook;
import dev.frontrun.internal.postgres.DatabaseSnapshot;
import dev.frontrun.internal.report.SerialWording;
import dev.frontrun.internal.sql.SqlFacts;
import dev.frontrun.internal.sql.SqlStep;
import dev.frontrun.internal.sql.resource.ResourceId;
import dev.frontrun.spi.ExplorationHook;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Observes a finished run for {@code Exploration.serializable}. Every thread's answer, and either what the user's
 * function returns of the state or the rows of the tables written, normalised ({@link RowsRead}). The tables observed
 * grow as executions write more of them; a serial run observed over fewer is no longer {@link #current}. One per
 * exploration run, shared by a parallel exploration's workers.
 */
public final class Observer<S> implements SerialCheck<S> {

    private final SerialSpec<S> spec;
    private final Predicate<Outcomes> excused;
    private final Set<Long> tables = ConcurrentHashMap.newKeySet();
    /** The stores' resources observed so far: a serial run that observed fewer is run again. */
    private final Set<String> storedResources = ConcurrentHashMap.newKeySet();

    private final Map<Long, TableShape> shapes = new ConcurrentHashMap<>();
    private final Map<String, Long> oids = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> versionsAtStart = new ConcurrentHashMap<>();

    /** Observes as {@code spec} says; a run whose {@code excused} outcomes pass is not compared (null). */
    public Observer(SerialSpec<S> spec, Predicate<Outcomes> excused) {
        this.spec = spec;
        this.excused = excused;
    }

    @Override
    public int maxThreads() {
        return spec.maxThreads();
    }

    @Override
    public Object observe(S state, Outcomes outcomes, List<TraceStep> trace, List<ExplorationHook> hooks)
            throws Exception {
        if (excused.test(outcomes)) {
            return null;
        }
        List<Observed.Answer> answers = new ArrayList<>();
        for (Outcomes.ThreadOutcome outcome : outcomes.all()) {
            answers.add(new Observed.Answer(
                    outcome.thread(),
                    thrown(outcome.thrown()),
                    outcome.status(),
                    spec.responses() ? outcome.response() : null));
        }
        if (spec.observed() != null) {
            return new Observed(answers, Map.of(), spec.observed().apply(state));
        }
        DatabaseSnapshot snapshot = snapshot(hooks);
        Connection c = snapshot.lent();
        Set<Long> written = new LinkedHashSet<>(snapshot.writtenSinceRestore());
        for (String table : touched(trace)) {
            oid(c, table).ifPresent(written::add);
        }
        tables.addAll(written);
        List<TableShape> read = new ArrayList<>();
        for (long oid : new TreeSet<>(tables)) {
            TableShape shape = shapes.get(oid);
            if (shape == null) {
                shape = TableShape.read(c, oid);
                shapes.put(oid, shape);
            }
            read.add(shape);
        }
        RowsRead rows = new RowsRead(spec, (table, column) -> versionsAtStart(c, snapshot, table, column));
        SortedMap<String, Optional<String>> kept = stored(hooks);
        storedResources.addAll(kept.keySet());
        return new Observed(answers, rows.read(c, read), null, kept);
    }

    /** What the stores beside the database hold, as their hooks show it. */
    private static SortedMap<String, Optional<String>> stored(List<ExplorationHook> hooks) throws Exception {
        SortedMap<String, Optional<String>> kept = new TreeMap<>();
        for (ExplorationHook hook : hooks) {
            kept.putAll(hook.observed());
        }
        return kept;
    }

    @Override
    public boolean current(Object serial) {
        return serial == null
                || ((Observed) serial).tables().keySet().containsAll(tables)
                        && ((Observed) serial).stored().keySet().containsAll(storedResources);
    }

    @Override
    public boolean same(Object observed, Object serial) {
        return ((Observed) observed).sameAs((Observed) serial);
    }

    @Override
    public Failure notSerializable(Object observed, List<SerialRun> serial) {
        return Differences.against((Observed) observed, serial);
    }

    /** The exploration's database snapshot, through which the rows are read. */
    private static DatabaseSnapshot snapshot(List<ExplorationHook> hooks) {
        return hooks.stream()
                .filter(DatabaseExplorationHook.class::isInstance)
                .map(hook -> ((DatabaseExplorationHook) hook).snapshotInUse())
                .flatMap(Optional::stream)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(SerialWording.SERIAL_WITHOUT_DATABASE));
    }

    /** The tables the explored threads' statements wrote or read with a locking read, by name. */
    private static Set<String> touched(List<TraceStep> trace) {
        Set<String> out = new LinkedHashSet<>();
        for (TraceStep step : trace) {
            if (!(step.step().detail() instanceof SqlStep sql)) {
                continue;
            }
            SqlFacts facts = sql.facts();
            Set<ResourceId> touched = new LinkedHashSet<>(facts.writes());
            if (facts.shape().lockingRead()) {
                touched.addAll(facts.reads());
            }
            for (ResourceId id : touched) {
                if (id.table() != null
                        && id.kind() != ResourceId.Kind.SEQUENCE
                        && !id.table().startsWith("#")) {
                    out.add(id.table());
                }
            }
        }
        return out;
    }

    private Optional<Long> oid(Connection c, String table) throws SQLException {
        Long known = oids.get(table);
        if (known == null) {
            try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?)::oid")) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long oid = rs.getLong(1);
                    known = rs.wasNull() ? -1L : oid;
                }
            }
            oids.put(table, known);
        }
        return known < 0 ? Optional.empty() : Optional.of(known);
    }

    /** Each row's {@code column} as the snapshot found it, by the row's key as {@link RowsRead#rawKey} renders it. */
    private Map<String, String> versionsAtStart(
            Connection c, DatabaseSnapshot snapshot, TableShape table, String column) throws SQLException {
        String cacheKey = table.oid() + "/" + column;
        Map<String, String> known = versionsAtStart.get(cacheKey);
        if (known != null) {
            return known;
        }
        Map<String, String> values = new HashMap<>();
        Optional<String> copy = snapshot.copyOf(table.oid());
        if (copy.isPresent() && !table.primaryKey().isEmpty()) {
            List<String> key = table.primaryKey();
            StringBuilder select = new StringBuilder("SELECT ");
            for (String part : key) {
                select.append(quoted(part)).append(", ");
            }
            select.append(quoted(column)).append(" FROM ").append(copy.get());
            try (PreparedStatement ps = c.prepareStatement(select.toString());
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, String> row = new HashMap<>();
                    for (int i = 0; i < key.size(); i++) {
                        row.put(key.get(i), String.valueOf(rs.getString(i + 1)));
                    }
                    values.put(RowsRead.rawKey(table, row), rs.getString(key.size() + 1));
                }
            }
        }
        versionsAtStart.put(cacheKey, values);
        return values;
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** The class of what a thread threw, with the SQLSTATE of the first database error on its cause chain. */
    private static String thrown(Throwable thrown) {
        if (thrown == null) {
            return null;
        }
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return thrown.getClass().getName() + " (" + sql.getSQLState() + ")";
            }
        }
        return thrown.getClass().getName();
    }
}
