package dev.frontrun.oracle;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Sessions an exploration left behind: a backend of the explored database, other than the oracle's
 * observer, still in a transaction or running a statement after {@code run()} returned (a thread the
 * scheduler could not stop, holding its locks). They would disturb the next exploration, so they are
 * reported as a problem of the exploration and terminated.
 */
final class Leftovers {

    private Leftovers() {}

    /** Describes and terminates every such session but {@code observer}'s; empty when there is none. */
    static List<String> terminate(Connection observer) throws SQLException {
        List<Integer> pids = new ArrayList<>();
        try (Statement st = observer.createStatement();
                ResultSet rs = st.executeQuery("SELECT pid FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND backend_type = 'client backend'"
                        + " AND pid <> pg_backend_pid() AND state <> 'idle'")) {
            while (rs.next()) {
                pids.add(rs.getInt(1));
            }
        }
        List<String> out = new ArrayList<>();
        LockMonitor monitor = new LockMonitor(observer);
        try (monitor;
                Statement st = observer.createStatement()) {
            for (int pid : pids) {
                out.add(monitor.describe(pid));
                st.execute("SELECT pg_terminate_backend(" + pid + ")");
            }
        }
        return out;
    }
}
