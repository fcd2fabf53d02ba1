package dev.frontrun.demo.petclinic.pet;

import dev.frontrun.demo.petclinic.model.NamedEntity;
import dev.frontrun.demo.petclinic.model.Versioned;
import dev.frontrun.demo.petclinic.visit.Visit;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.Set;
import org.hibernate.annotations.OptimisticLock;
import org.springframework.format.annotation.DateTimeFormat;

/** A pet; its visits cascade like the owner's pets do, so a stale owner save reaches them too. */
@Entity
@Table(name = "pets")
public class Pet extends NamedEntity implements Versioned {

    @Column(name = "birth_date")
    @DateTimeFormat(pattern = "yyyy-MM-dd")
    private LocalDate birthDate;

    @ManyToOne
    @JoinColumn(name = "type_id")
    private PetType type;

    /** Mapped by the variant's orm.xml only (see {@link Versioned}). */
    private Integer version;

    /** Excluded from the pet's optimistic lock: two visits to one pet must both succeed (race 4). */
    @OneToMany(cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @JoinColumn(name = "pet_id")
    @OrderBy("date ASC")
    @OptimisticLock(excluded = true)
    private final Set<Visit> visits = new LinkedHashSet<>();

    public LocalDate getBirthDate() {
        return birthDate;
    }

    public void setBirthDate(LocalDate birthDate) {
        this.birthDate = birthDate;
    }

    public PetType getType() {
        return type;
    }

    public void setType(PetType type) {
        this.type = type;
    }

    @Override
    public Integer getVersion() {
        return version;
    }

    public Set<Visit> getVisits() {
        return visits;
    }

    public void addVisit(Visit visit) {
        visits.add(visit);
    }
}
