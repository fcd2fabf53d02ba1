package dev.frontrun.demo.petclinic.visit;

import java.time.LocalDate;

/** A visit as the JSON pages show it. */
public record VisitView(Integer id, LocalDate date, String description) {

    public static VisitView of(Visit visit) {
        return new VisitView(visit.getId(), visit.getDate(), visit.getDescription());
    }
}
