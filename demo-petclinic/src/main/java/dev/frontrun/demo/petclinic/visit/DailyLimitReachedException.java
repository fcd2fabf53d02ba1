package dev.frontrun.demo.petclinic.visit;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/** The owner has booked as many visits online today as the clinic allows: the user is told (429). */
@ResponseStatus(HttpStatus.TOO_MANY_REQUESTS)
public class DailyLimitReachedException extends RuntimeException {

    public DailyLimitReachedException(int ownerId, int limit) {
        super("owner " + ownerId + " has booked " + limit + " visits online today, the most a day allows");
    }
}
