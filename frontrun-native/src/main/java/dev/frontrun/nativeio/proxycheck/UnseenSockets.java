package dev.frontrun.nativeio.proxycheck;

import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * {@code frontrun.native=auto} without the library. The result says that requests to other services went unexplored
 * only when the explored threads really talked to a socket that is not the database's, as the JDK's own socket events
 * show ({@link SocketTraffic}); an application that talks only to its database gets no note. The database is known by
 * the peer a connection of its data source talks to, asked on a thread of this hook's own before the first execution.
 * Without a Flight Recorder to ask, every result carries the note, as it cannot tell.
 */
final class UnseenSockets implements ExplorationHook {

    private static final int NAMED = 3;

    private final String reason;
    private final DataSource database;
    /** the Java thread ids of the explored threads, as each one starts its body */
    private final Set<Long> explored = ConcurrentHashMap.newKeySet();

    private SocketTraffic traffic;
    private long databaseProbe = -1;
    /** what the last exploration found: null when it could not be watched */
    private Set<SocketTraffic.Peer> talkedTo;

    UnseenSockets(String reason, DataSource database) {
        this.reason = reason;
        this.database = database;
    }

    @Override
    public void beforeExploration() throws Exception {
        explored.clear();
        talkedTo = null;
        traffic = watched();
        if (traffic != null && database != null) {
            databaseProbe = probe(database);
        }
    }

    /** A recording of the socket events, or null in a runtime without the Flight Recorder (module jdk.jfr left out). */
    private static SocketTraffic watched() {
        try {
            return SocketTraffic.start().orElse(null);
        } catch (LinkageError noFlightRecorder) {
            return null;
        }
    }

    /** The work run plainly records nothing. */
    @Override
    public void beforeBaseline() {
        traffic = null;
    }

    /** Talks to the database on a thread of its own, whose peers are then the database's; returns its id. */
    private static long probe(DataSource database) throws InterruptedException {
        Thread probe = new Thread(
                () -> {
                    try (Connection connection = database.getConnection()) {
                        connection.isValid(10);
                    } catch (Exception e) {
                        // no peer is then the database's: its traffic counts as another service's, never the other way
                        // round
                    }
                },
                "frontrun-database-peer");
        probe.setDaemon(true);
        probe.start();
        probe.join();
        return probe.getId();
    }

    @Override
    public void threadStarting(ExecutionContext execution, int thread) {
        explored.add(Thread.currentThread().getId());
    }

    @Override
    public void afterExploration() throws Exception {
        if (traffic == null) {
            return;
        }
        SocketTraffic watched = traffic;
        traffic = null;
        Map<Long, Set<SocketTraffic.Peer>> peers = watched.stop();
        Set<SocketTraffic.Peer> databasePeers = peers.getOrDefault(databaseProbe, Set.of());
        Set<SocketTraffic.Peer> others = new TreeSet<>();
        explored.forEach(id -> others.addAll(peers.getOrDefault(id, Set.of())));
        others.removeAll(databasePeers);
        talkedTo = others;
    }

    @Override
    public List<String> notExplored() {
        if (talkedTo == null) {
            return List.of("requests to other services over sockets, and SQL sent around Frontrun's JDBC proxy: "
                    + NativeMode.PROPERTY + "=auto, and " + reason);
        }
        if (talkedTo.isEmpty()) {
            return List.of();
        }
        return List.of("requests to other services over sockets: the explored threads talked to " + named(talkedTo)
                + ", in an order Frontrun explores only with its native library: " + NativeMode.PROPERTY + "=auto, and "
                + reason);
    }

    /** The first few peers, and how many more. */
    private static String named(Set<SocketTraffic.Peer> peers) {
        String first =
                peers.stream().limit(NAMED).map(SocketTraffic.Peer::toString).collect(Collectors.joining(", "));
        return peers.size() <= NAMED ? first : first + " and " + (peers.size() - NAMED) + " more";
    }
}
