package dev.frontrun.demo.reservations;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One reservation service for the test JVM, started on first use, that every variant's context
 * books with (scenarios use days of their own to stay apart).
 */
public final class TestReservations {

    private TestReservations() {}

    private static final class Holder {
        static final ReservationService SERVICE = ReservationService.start();
    }

    public static ReservationService service() {
        return Holder.SERVICE;
    }

    /** Points {@code petclinic.reservations.url} at the service. */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("petclinic.reservations.url", () -> service().url());
    }
}
