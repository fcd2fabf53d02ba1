package dev.frontrun.demo.petclinic.vet;

import dev.frontrun.demo.petclinic.model.Person;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.Table;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A vet and its specialties; read-only in this application. */
@Entity
@Table(name = "vets")
public class Vet extends Person {

    @ManyToMany(fetch = FetchType.EAGER)
    @JoinTable(
            name = "vet_specialties",
            joinColumns = @JoinColumn(name = "vet_id"),
            inverseJoinColumns = @JoinColumn(name = "specialty_id"))
    private final Set<Specialty> specialties = new HashSet<>();

    /** The specialties sorted by name, for a stable page. */
    public List<Specialty> getSpecialties() {
        return specialties.stream()
                .sorted(Comparator.comparing(Specialty::getName))
                .toList();
    }
}
