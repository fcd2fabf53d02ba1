package dev.frontrun.demo.petclinic.visit;

import java.time.LocalDate;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The clinic's client of the reservation service (another team's HTTP service at
 * {@code petclinic.reservations.url}) that holds how many visits each day can take: a visit is
 * booked only if its day still has a free slot.
 *
 * <p>Classic ({@code petclinic.reservations.atomic=false}, the default): the client reads the day's
 * slots ({@code GET /slots/{day}}, answered {@code booked/capacity}) and writes the new count back
 * ({@code PUT /slots/{day}}) — two calls, so two bookings for the last slot both see it free. Nothing
 * of it passes through JDBC: only Frontrun's native layer sees the two requests race. Fixed
 * ({@code true}): one call that reserves on the service's side ({@code POST /slots/{day}/reserve},
 * 409 when the day is full).
 *
 * <p>The requests go through {@code HttpURLConnection} on the calling thread (Spring's
 * {@link SimpleClientHttpRequestFactory}), as the explored threads' own I/O; a client that sends on
 * threads of its own (the JDK's {@code HttpClient}) would not be explored.
 */
@Component
public class SlotReservations {

    private final RestClient service;
    private final boolean atomic;

    public SlotReservations(
            @Value("${petclinic.reservations.url:}") String url,
            @Value("${petclinic.reservations.atomic:false}") boolean atomic) {
        this.service = url.isBlank()
                ? null
                : RestClient.builder()
                        .baseUrl(url)
                        .requestFactory(new SimpleClientHttpRequestFactory())
                        .build();
        this.atomic = atomic;
    }

    /** Takes a slot of {@code day}, or throws {@link SlotTakenException} when the day is full. */
    public void reserve(LocalDate day) {
        if (service == null) {
            throw new IllegalStateException("no reservation service: set petclinic.reservations.url");
        }
        if (atomic) {
            service.post()
                    .uri("/slots/{day}/reserve", day)
                    .retrieve()
                    .onStatus(HttpStatusCode.valueOf(409)::equals, (request, response) -> {
                        throw new SlotTakenException(day);
                    })
                    .toBodilessEntity();
            return;
        }
        String[] slots = service.get()
                .uri("/slots/{day}", day)
                .retrieve()
                .body(String.class)
                .split("/");
        int booked = Integer.parseInt(slots[0].trim());
        if (booked >= Integer.parseInt(slots[1].trim())) {
            throw new SlotTakenException(day);
        }
        service.put()
                .uri("/slots/{day}", day)
                .body(Integer.toString(booked + 1))
                .retrieve()
                .toBodilessEntity();
    }
}
