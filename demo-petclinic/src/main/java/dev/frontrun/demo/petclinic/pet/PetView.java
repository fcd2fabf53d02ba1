package dev.frontrun.demo.petclinic.pet;

import dev.frontrun.demo.petclinic.visit.VisitView;
import java.time.LocalDate;
import java.util.List;

/** A pet (and its edit form) as JSON; {@code version} is the hidden field, null when classic. */
public record PetView(
        Integer id, Integer version, String name, LocalDate birthDate, String type, List<VisitView> visits) {

    public static PetView of(Pet pet) {
        return new PetView(
                pet.getId(),
                pet.getVersion(),
                pet.getName(),
                pet.getBirthDate(),
                pet.getType() == null ? null : pet.getType().getName(),
                pet.getVisits().stream().map(VisitView::of).toList());
    }
}
