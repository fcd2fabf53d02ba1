package dev.frontrun.spring.app;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.stereotype.Service;

/**
 * {@link GiftCardDesk}'s work in plain JDBC, without Spring's transactions or Hibernate: the same statements in the
 * same order (read the card, insert the ledger entry, update the card, commit) at REPEATABLE READ, retried on a
 * serialization failure up to three attempts.
 */
@Service
public class JdbcGiftCards {

    private final DataSource dataSource;

    public JdbcGiftCards(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Each attempt's answer, in order: the balance it read, or {@code retry} where it lost the update. */
    public List<String> apply(long id, int amount) throws SQLException {
        List<String> attempts = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            for (int attempt = 1; ; attempt++) {
                try {
                    attempts.add(Integer.toString(once(c, id, amount)));
                    return attempts;
                } catch (SQLException lost) {
                    c.rollback();
                    if (!"40001".equals(lost.getSQLState()) || attempt == GiftCardDesk.ATTEMPTS) {
                        throw lost;
                    }
                    attempts.add("retry");
                }
            }
        }
    }

    private static int once(Connection c, long id, int amount) throws SQLException {
        int read;
        try (PreparedStatement select = c.prepareStatement("SELECT balance FROM gift_cards WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                read = rs.getInt(1);
            }
        }
        try (PreparedStatement insert =
                c.prepareStatement("INSERT INTO ledger_entries (card_id, amount) VALUES (?, ?)")) {
            insert.setLong(1, id);
            insert.setInt(2, amount);
            insert.executeUpdate();
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE gift_cards SET balance = ? WHERE id = ?")) {
            update.setInt(1, read + amount);
            update.setLong(2, id);
            update.executeUpdate();
        }
        c.commit();
        return read;
    }
}
