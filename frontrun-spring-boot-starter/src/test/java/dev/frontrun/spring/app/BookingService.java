package dev.frontrun.spring.app;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A show with one seat. The {@code synchronized} "fix" a developer tries first, and where it must sit. */
@Service
public class BookingService {

    static final int SEATS = 1;

    private final JdbcTemplate jdbc;

    public BookingService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Synchronized and transactional: the monitor is given back when the method returns, but the
     * transaction commits after that, in the proxy: the next caller counts before the commit.
     */
    @Transactional
    public synchronized boolean bookSynchronized(long show, String who) {
        return bookIfFree(show, who);
    }

    /** Transactional only; {@link BookingDesk} serializes the calls around the whole transaction. */
    @Transactional
    public boolean book(long show, String who) {
        return bookIfFree(show, who);
    }

    private boolean bookIfFree(long show, String who) {
        Integer taken = jdbc.queryForObject("SELECT count(*) FROM bookings WHERE show_id = ?", Integer.class, show);
        if (taken >= SEATS) {
            return false;
        }
        jdbc.update("INSERT INTO bookings (show_id, who) VALUES (?, ?)", show, who);
        return true;
    }
}
