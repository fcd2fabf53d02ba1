package dev.frontrun.demo.petclinic.model;

import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;

/** An entity with a name (pets, pet types, specialties). */
@MappedSuperclass
public class NamedEntity extends BaseEntity {

    @Column(name = "name")
    private String name;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
