package dev.frontrun.spring.app;

import org.springframework.stereotype.Service;

/** The synchronized fix that works: the monitor is held around the whole transaction, commit included. */
@Service
public class BookingDesk {

    private final BookingService bookings;
    private String lastBooker;

    public BookingDesk(BookingService bookings) {
        this.bookings = bookings;
    }

    public synchronized boolean book(long show, String who) {
        boolean booked = bookings.book(show, who);
        if (booked) {
            lastBooker = who;
        }
        return booked;
    }

    public synchronized String lastBooker() {
        return lastBooker;
    }
}
