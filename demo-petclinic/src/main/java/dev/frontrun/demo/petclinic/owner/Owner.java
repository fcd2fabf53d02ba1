package dev.frontrun.demo.petclinic.owner;

import dev.frontrun.demo.petclinic.model.Person;
import dev.frontrun.demo.petclinic.model.Versioned;
import dev.frontrun.demo.petclinic.pet.Pet;
import dev.frontrun.demo.petclinic.visit.Visit;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.annotations.OptimisticLock;

/**
 * An owner and, as in the sample, the aggregate root of its pets. {@code pets} is eager and
 * {@code cascade = ALL}, so saving a detached owner merges every pet it carries — stale or not.
 */
@Entity
@Table(name = "owners")
public class Owner extends Person implements Versioned {

    @Column(name = "address")
    @NotBlank
    private String address;

    @Column(name = "city")
    @NotBlank
    private String city;

    @Column(name = "telephone")
    @NotBlank
    @Pattern(regexp = "\\d{10}", message = "Telephone must be a 10-digit number")
    private String telephone;

    /** Mapped by the variant's orm.xml only (see {@link Versioned}). */
    private Integer version;

    /**
     * Excluded from the owner's optimistic lock: adding a pet is not an edit of the owner, and must
     * not conflict with one (control race 4). Name uniqueness is the index's job in the fixed variant.
     */
    @OneToMany(cascade = CascadeType.ALL, fetch = FetchType.EAGER)
    @JoinColumn(name = "owner_id")
    @OrderBy("name")
    @OptimisticLock(excluded = true)
    private final List<Pet> pets = new ArrayList<>();

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getCity() {
        return city;
    }

    public void setCity(String city) {
        this.city = city;
    }

    public String getTelephone() {
        return telephone;
    }

    public void setTelephone(String telephone) {
        this.telephone = telephone;
    }

    @Override
    public Integer getVersion() {
        return version;
    }

    public List<Pet> getPets() {
        return pets;
    }

    public void addPet(Pet pet) {
        if (pet.isNew()) {
            pets.add(pet);
        }
    }

    /** The pet with this name, ignoring case — the sample's (Java-only) duplicate check. */
    public Pet getPet(String name) {
        return getPet(name, false);
    }

    /** The pet with this name, ignoring case; {@code ignoreNew} skips pets not yet saved. */
    public Pet getPet(String name, boolean ignoreNew) {
        for (Pet pet : pets) {
            if (pet.getName() != null && pet.getName().equalsIgnoreCase(name) && !(ignoreNew && pet.isNew())) {
                return pet;
            }
        }
        return null;
    }

    /** The saved pet with this id, or {@code null}. */
    public Pet getPet(Integer id) {
        for (Pet pet : pets) {
            if (!pet.isNew() && pet.getId().equals(id)) {
                return pet;
            }
        }
        return null;
    }

    /** Adds a visit to one of this owner's pets, as the sample's {@code Owner.addVisit}. */
    public void addVisit(Integer petId, Visit visit) {
        Pet pet = getPet(petId);
        if (pet == null) {
            throw new IllegalArgumentException("owner " + getId() + " has no pet " + petId);
        }
        pet.addVisit(visit);
    }
}
