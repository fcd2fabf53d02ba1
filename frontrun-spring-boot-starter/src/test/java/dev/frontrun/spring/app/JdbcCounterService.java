package dev.frontrun.spring.app;

import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** The racy read-modify-write in plain JDBC: JdbcTemplate in a JDBC transaction, no JPA involved. */
@Service
public class JdbcCounterService {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public JdbcCounterService(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
        this.transactions.setName("JdbcCounterService.increment");
    }

    public void increment(long id) {
        transactions.executeWithoutResult(status -> {
            Integer n = jdbc.queryForObject("SELECT n FROM counters WHERE id = ?", Integer.class, id);
            jdbc.update("UPDATE counters SET n = ? WHERE id = ?", n + 1, id);
        });
    }
}
