package dev.frontrun.demo.petclinic.visit;

import java.time.LocalDate;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/** The day of the visit has no free slot left: the user is told (409). */
@ResponseStatus(HttpStatus.CONFLICT)
public class SlotTakenException extends RuntimeException {

    public SlotTakenException(LocalDate day) {
        super("no free slot left on " + day);
    }
}
