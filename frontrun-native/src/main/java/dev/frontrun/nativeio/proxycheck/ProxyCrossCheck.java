package dev.frontrun.nativeio.proxycheck;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.nativeio.DatabasePort;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.PgMessage;
import dev.frontrun.nativeio.PgRecording;
import dev.frontrun.nativeio.PortWatch;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Checks the JDBC proxy from beneath. Every statement an explored thread sends to PostgreSQL, read
 * at the libc level by the preloaded {@code libfrontrun_io.so}, must be one the Frontrun proxy
 * announced for that thread in that execution. SQL that went around the proxy (a
 * {@code DriverManager} connection, a {@code DataSource} built by hand, a second pool) is SQL whose
 * interleavings nobody explored: the exploration ends with "database traffic outside Frontrun's
 * proxy from thread X: SQL" instead of a verdict, as it ends with "Frontrun saw no SQL" when nothing
 * went through the proxy.
 *
 * <p>Design notes: see the package documentation.
 */
public final class ProxyCrossCheck implements ExplorationHook {

    private static final String ADVICE = "Frontrun explores only statements that pass through its JDBC proxy, so the"
            + " interleavings of this one were never explored and no verdict would mean anything. Get the connection"
            + " from the DataSource Frontrun wraps (FrontrunDataSource.wrap(...); in Spring, a DataSource bean),"
            + " not from DriverManager or a pool of its own";

    private final DataSource dataSource;
    private final Object threadIdsKey = new Object();
    private PortWatch watch;
    private PgRecording recording;
    private long droppedBefore;
    /** per connection (native number), prepared statement name to its SQL, as Parse messages defined them */
    private final Map<Integer, Map<String, Prepared>> prepared = new HashMap<>();
    /** the framing statements each explored thread sent in the last completed execution, by thread name */
    private final Map<String, List<String>> tolerated = new LinkedHashMap<>();

    private record Prepared(String sql, boolean truncated) {}

    /**
     * A statement an explored thread ran on the wire. Its sql is null when it ran a statement prepared before
     * the check began; unreadable says why its connection could not be read from some point on.
     */
    private record Sent(String sql, boolean truncated, String unreadable) {}

    /** @param dataSource the database the explored code uses (its port is the one whose traffic is read) */
    public ProxyCrossCheck(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void beforeExploration() throws SQLException {
        int port = DatabasePort.of(dataSource);
        watch = NativeIo.watchPort(port);
        recording = NativeIo.recordPgMessages();
        droppedBefore = recording.dropped();
    }

    /** The work run plainly is not checked: no recording, so its statements cost what they cost without Frontrun. */
    @Override
    public void beforeBaseline() {}

    @Override
    public void threadStarting(ExecutionContext execution, int thread) {
        threadIds(execution).put(NativeIo.currentThreadId(), thread);
    }

    @Override
    public void beforeExecution(ExecutionContext execution) {
        if (recording == null) {
            return; // a baseline's round
        }
        absorb(recording.drain(), Map.of()); // the setup's and the restore's statements: no explored thread's
    }

    @Override
    public void executionCompleted(ExecutionContext execution) {
        List<PgMessage> messages = recording.drain();
        long dropped = recording.dropped() - droppedBefore;
        if (dropped > 0) {
            throw new IllegalStateException(
                    "Frontrun's native layer lost " + dropped + " chunks of PostgreSQL messages"
                            + " (its buffer was full), so it cannot tell whether every statement went through the proxy;"
                            + " explore fewer statements per execution, or set frontrun.native=off to explore without the check");
        }
        Map<Integer, Integer> threads = threadIds(execution);
        Map<Integer, List<Sent>> sent = absorb(messages, threads);
        tolerated.clear();
        for (Map.Entry<Integer, List<Sent>> entry : sent.entrySet()) {
            check(execution, entry.getKey(), entry.getValue());
        }
    }

    @Override
    public void afterExecution(ExecutionContext execution) {
        if (recording == null) {
            return; // a baseline's round
        }
        absorb(recording.drain(), Map.of()); // an execution that did not complete: keep the prepared names only
    }

    @Override
    public void afterExploration() {
        try {
            if (recording != null) {
                recording.close();
            }
        } finally {
            recording = null;
            if (watch != null) {
                watch.close();
                watch = null;
            }
            prepared.clear();
        }
    }

    /** Learns prepared statements from the messages and returns what each explored thread ran, by thread index. */
    private Map<Integer, List<Sent>> absorb(List<PgMessage> messages, Map<Integer, Integer> threads) {
        Map<Integer, List<Sent>> sent = new HashMap<>();
        for (PgMessage m : messages) {
            Integer thread = m.frontrunOwn() ? null : threads.get(m.threadId()); // Frontrun's own SQL: not the app's
            Map<String, Prepared> names = prepared.computeIfAbsent(m.connection(), c -> new HashMap<>());
            switch (m.kind()) {
                case PARSE -> names.put(m.statementName(), new Prepared(m.sql(), m.truncated()));
                case BIND -> {
                    if (thread != null) {
                        Prepared p = names.get(m.statementName());
                        sent.computeIfAbsent(thread, t -> new ArrayList<>())
                                .add(p == null ? new Sent(null, false, null) : new Sent(p.sql(), p.truncated(), null));
                    }
                }
                case QUERY -> {
                    if (thread != null) {
                        List<String> statements = WireSql.statements(m.sql());
                        for (int i = 0; i < statements.size(); i++) {
                            boolean last = i == statements.size() - 1;
                            sent.computeIfAbsent(thread, t -> new ArrayList<>())
                                    .add(new Sent(statements.get(i), last && m.truncated(), null));
                        }
                    }
                }
                case TLS, UNREADABLE -> {
                    if (thread != null) {
                        sent.computeIfAbsent(thread, t -> new ArrayList<>())
                                .add(new Sent(
                                        null,
                                        false,
                                        m.kind() == PgMessage.Kind.TLS
                                                ? "the connection is encrypted (TLS); connect with sslmode=disable in tests"
                                                : "the stream stopped parsing as the PostgreSQL protocol"));
                    }
                }
            }
        }
        return sent;
    }

    /**
     * The statements each explored thread sent in the last completed execution that needed no
     * announcement (transaction framing and session settings, as the driver wrote them), by thread
     * name: what the check let pass, for diagnostics and tests.
     */
    public Map<String, List<String>> toleratedInLastExecution() {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        tolerated.forEach((thread, statements) -> copy.put(thread, List.copyOf(statements)));
        return copy;
    }

    private void check(ExecutionContext execution, int thread, List<Sent> sent) {
        List<String> announced = new ArrayList<>();
        for (String sql : FrontrunDataSource.announcedSql(execution, thread)) {
            for (String statement : WireSql.statements(sql)) {
                announced.add(WireSql.normalized(statement));
            }
        }
        for (Sent s : sent) {
            if (s.unreadable() != null) {
                throw new IllegalStateException("database traffic Frontrun cannot read from thread '"
                        + execution.threadNames().get(thread) + "': " + s.unreadable()
                        + ", so Frontrun cannot check that its SQL went through the proxy");
            }
            if (s.sql() == null) {
                continue; // a statement prepared before the check began: its text is unknown (see the class comment)
            }
            String wire = WireSql.normalized(s.sql());
            if (WireSql.framing(wire)) {
                tolerated
                        .computeIfAbsent(execution.threadNames().get(thread), t -> new ArrayList<>())
                        .add(s.sql().strip());
                continue;
            }
            Optional<String> match = announced.stream()
                    .filter(a -> WireSql.matches(wire, s.truncated(), a))
                    .findFirst();
            if (match.isEmpty()) {
                throw new IllegalStateException("database traffic outside Frontrun's proxy from thread '"
                        + execution.threadNames().get(thread) + "': " + s.sql().strip()
                        + (s.truncated() ? " [...]" : "") + "\n" + ADVICE + ".");
            }
            announced.remove(match.get());
        }
    }

    private Map<Integer, Integer> threadIds(ExecutionContext execution) {
        return execution.attribute(threadIdsKey, k -> new ConcurrentHashMap<>());
    }
}
