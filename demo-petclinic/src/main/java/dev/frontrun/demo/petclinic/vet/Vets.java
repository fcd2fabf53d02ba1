package dev.frontrun.demo.petclinic.vet;

import java.util.List;

/** The vet list page, in the sample's JSON shape ({@code {"vetList": [...]}}). */
public record Vets(List<VetView> vetList) {

    /** One vet with its specialties. */
    public record VetView(Integer id, String firstName, String lastName, List<SpecialtyView> specialties) {

        static VetView of(Vet vet) {
            return new VetView(
                    vet.getId(),
                    vet.getFirstName(),
                    vet.getLastName(),
                    vet.getSpecialties().stream()
                            .map(s -> new SpecialtyView(s.getId(), s.getName()))
                            .toList());
        }
    }

    /** A specialty. */
    public record SpecialtyView(Integer id, String name) {}
}
