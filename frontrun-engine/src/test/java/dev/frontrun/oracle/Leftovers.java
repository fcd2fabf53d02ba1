package dev.frontrun.oracle;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Sessions an exploration left behind: a backend of the test database, not one of the oracle's
 * own, still in a transaction or running a statement after {@code run()} returned (a thread the
 * scheduler could not stop, holding its locks). They would block the next ground truth, so they are
 * reported as a problem of the exploration and terminated.
 */
final class Leftovers {

    private Leftovers() {
    }

    /** Describes and terminates every such session; empty when there is none. */
    static List<String> terminate(Connection observer, Set<Integer> ownPids) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = observer.prepareStatement("SELECT pid, state, query FROM pg_stat_activity"
                + " WHERE datname = current_database() AND backend_type = 'client backend'"
                + " AND pid <> pg_backend_pid() AND NOT (pid = ANY (?)) AND state NOT IN ('idle')")) {
            Array pids = observer.createArrayOf("int4", ownPids.toArray());
            ps.setArray(1, pids);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add("backend " + rs.getInt(1) + " left " + rs.getString(2) + " after: " + rs.getString(3));
                    try (Statement st = observer.createStatement()) {
                        st.execute("SELECT pg_terminate_backend(" + rs.getInt(1) + ")");
                    }
                }
            }
        }
        return out;
    }
}
