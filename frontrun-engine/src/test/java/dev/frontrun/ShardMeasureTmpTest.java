package dev.frontrun;

import dev.frontrun.jdbc.FrontrunDataSource;
import dev.frontrun.testing.PostgresExtension;
import dev.frontrun.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.*;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(PostgresExtension.class)
class ShardMeasureTmpTest {
    @TempDir Path dir;

    static Exploration<int[]> big() {
        Exploration<int[]> e = Frontrun.explore(() -> new int[1]);
        for (int t = 0; t < 4; t++) {
            int th = t;
            e.thread("t" + t, v -> { Frontrun.access("x", Access.WRITE); Frontrun.access("y" + th, Access.WRITE); Frontrun.access(th % 2 == 0 ? "y1" : "y0", Access.READ); Frontrun.access("x", Access.READ);});
        }
        return e.progress(null, java.time.Duration.ofMinutes(5)).maxExecutions(1_000_000);
    }

    @Test void plain() {
        Result whole = big().run();
        System.out.println("MEASURE plain whole executions=" + whole.executions() + " runs=" + whole.timings().runs() + " ms=" + whole.elapsed().toMillis());
        for (int n : new int[] {2, 3, 5}) {
            for (int i = 0; i < n; i++) {
                Result r = big().shard(i, n).name("big").shardDirectory(dir.resolve("p" + n)).run();
                System.out.println("MEASURE plain n=" + n + " i=" + i + " executions=" + r.executions() + " runs=" + r.timings().runs() + " ms=" + r.elapsed().toMillis() + " " + r.notExplored());
            }
        }
    }

    @Test void db(TestDatabase db) {
        db.execute("DROP TABLE IF EXISTS counter", "CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)", "INSERT INTO counter VALUES (1, 0)");
        DataSource ds = FrontrunDataSource.wrap(db.dataSource());
        java.util.function.Supplier<Exploration<Object>> e = () -> Frontrun.explore(Object::new).database(db.dataSource())
            .thread("a", s -> inc(ds)).thread("b", s -> inc(ds)).thread("c", s -> inc(ds))
            .stopOnFirstFailure(false).reproduceOnFailure(0).checkAdvice(false).progress(null, java.time.Duration.ofMinutes(5));
        Result whole = e.get().run();
        System.out.println("MEASURE db whole executions=" + whole.executions() + " runs=" + whole.timings().runs() + " ms=" + whole.elapsed().toMillis());
        for (int n : new int[] {2, 3}) {
            for (int i = 0; i < n; i++) {
                Result r = e.get().shard(i, n).name("db").shardDirectory(dir.resolve("d" + n)).run();
                System.out.println("MEASURE db n=" + n + " i=" + i + " executions=" + r.executions() + " runs=" + r.timings().runs() + " ms=" + r.elapsed().toMillis() + " " + r.notExplored());
            }
        }
    }

    static void inc(DataSource ds) throws SQLException {
        int n;
        try (Connection c = ds.getConnection(); PreparedStatement s = c.prepareStatement("SELECT n FROM counter WHERE id = 1"); ResultSet rs = s.executeQuery()) { rs.next(); n = rs.getInt(1); }
        try (Connection c = ds.getConnection(); PreparedStatement u = c.prepareStatement("UPDATE counter SET n = ? WHERE id = 1")) { u.setInt(1, n + 1); u.executeUpdate(); }
    }
}
