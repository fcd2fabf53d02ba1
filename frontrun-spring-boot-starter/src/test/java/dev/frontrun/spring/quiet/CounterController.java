package dev.frontrun.spring.quiet;

import dev.frontrun.spring.witness.Seen;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The racy read-modify-write of a counter, logging a warning as it goes and catching what fails in its SQL. */
@RestController
public class CounterController {

    private static final Logger LOG = LoggerFactory.getLogger(CounterController.class);

    private final JdbcTemplate jdbc;
    private final Seen seen;

    public CounterController(JdbcTemplate jdbc, Seen seen) {
        this.jdbc = jdbc;
        this.seen = seen;
    }

    @PostMapping("/quiet/counters/{id}/increment")
    public String increment(@PathVariable long id) {
        seen.reached();
        LOG.warn("incrementing counter {}", id);
        try {
            Integer n = jdbc.queryForObject("SELECT n FROM counters WHERE id = ?", Integer.class, id);
            jdbc.update("UPDATE counters SET n = ? WHERE id = ?", n + 1, id);
            return Integer.toString(n + 1);
        } catch (Exception e) {
            seen.caught(e); // an application that swallows what failed and answers anyway
            return "failed";
        }
    }
}
